package controllermanager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/controllers/manager"
)

// withControllers replaces the registry for one test.
func withControllers(t *testing.T, names ...string) {
	saved, savedAliases := controllers, aliases
	t.Cleanup(func() { controllers, aliases = saved, savedAliases })
	controllers, aliases = map[string]AddFunc{}, map[string]string{}
	for _, n := range names {
		controllers[n] = func(*manager.Manager) error { return nil }
	}
}

func TestResolve(t *testing.T) {
	withControllers(t, "deployment", "job", "namespace")
	for _, tc := range []struct {
		name string
		list []string
		want []string
	}{
		{name: "nil is every controller", list: nil, want: []string{"deployment", "job", "namespace"}},
		{name: "empty is none", list: []string{}, want: nil},
		{name: "star", list: []string{"*"}, want: []string{"deployment", "job", "namespace"}},
		{name: "star minus one", list: []string{"*", "-job"}, want: []string{"deployment", "namespace"}},
		{name: "order does not matter", list: []string{"-job", "*"}, want: []string{"deployment", "namespace"}},
		{name: "named only", list: []string{"job"}, want: []string{"job"}},
		{name: "spaces are trimmed", list: []string{" job ", " namespace"}, want: []string{"job", "namespace"}},
		{name: "disable without star", list: []string{"-job"}, want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(tc.list)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestResolveAcceptsOldNames(t *testing.T) {
	got, err := Resolve([]string{"replicaset", "endpoints-controller"})
	require.NoError(t, err)
	assert.Equal(t, []string{"endpoints-controller", "replicaset-controller"}, got)
	got, err = Resolve([]string{"*", "-nodelifecycle"})
	require.NoError(t, err)
	assert.NotContains(t, got, "node-lifecycle-controller")
	assert.Contains(t, got, "namespace-controller")
}

func TestResolveRejectsUnknownNames(t *testing.T) {
	withControllers(t, "job")
	_, err := Resolve([]string{"*", "jobs"})
	assert.ErrorContains(t, err, `unknown controller "jobs"`)
	_, err = Resolve([]string{"-cronjob"})
	assert.ErrorContains(t, err, `unknown controller "cronjob"`)
}
