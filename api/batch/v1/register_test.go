package v1

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
)

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, AddToScheme(s))
	for _, kind := range []string{"Job", "JobList"} {
		obj, err := s.New(SchemeGroupVersion.WithKind(kind))
		require.NoError(t, err, "New(%s)", kind)
		assert.Equal(t, "batch/v1", obj.GetTypeMeta().APIVersion, "New(%s)", kind)
	}
	info, ok := s.Resource(SchemeGroupVersion.WithResource("jobs"))
	require.True(t, ok)
	assert.Equal(t, "Job", info.Kind)
	assert.Equal(t, "job", info.SingularName)
	assert.True(t, info.Namespaced)
	assert.Equal(t, []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}, info.Verbs)
	assert.Empty(t, info.ShortNames, "jobs have no short name upstream")
	assert.Equal(t, []string{"all"}, info.Categories)
	assert.Equal(t, []string{"status"}, info.Subresources)
}
