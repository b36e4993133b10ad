package clustertest_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster/clustertest"
)

// TestKubectl: Run returns what kubectl printed, Fail the error it
// printed, and each command starts with an empty HOME.
func TestKubectl(t *testing.T) {
	t.Parallel()
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithControllers())
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	k := clustertest.NewKubectl(t, kubeconfig)
	require.NoError(t, c.WriteKubeconfig(kubeconfig))
	assert.Equal(t, kubeconfig, k.Kubeconfig())

	assert.Contains(t, k.Run("get", "namespaces", "-o", "name"), "namespace/kube-system")
	assert.Contains(t, k.Fail("get", "configmap", "missing"), `configmaps "missing" not found`)

	out, err := k.Command(t.Context(), "config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}").Output()
	require.NoError(t, err)
	assert.Equal(t, c.URL(), string(out), "the kubeconfig given")
	// The last HOME of a command's environment is the one it gets.
	home := func() string {
		var h string
		for _, kv := range k.Command(t.Context(), "version").Env {
			if v, ok := strings.CutPrefix(kv, "HOME="); ok {
				h = v
			}
		}
		require.DirExists(t, h)
		return h
	}
	assert.NotEqual(t, home(), home(), "each command has a HOME of its own")
}
