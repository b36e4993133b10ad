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
	require.NoError(t, AddToScheme(s), "AddToScheme is idempotent")
	for _, kind := range []string{"Deployment", "DeploymentList", "ReplicaSet", "ReplicaSetList", "StatefulSet", "StatefulSetList"} {
		obj, err := s.New(SchemeGroupVersion.WithKind(kind))
		require.NoError(t, err, "New(%s)", kind)
		assert.Equal(t, "apps/v1", obj.GetTypeMeta().APIVersion, "New(%s)", kind)
		assert.Equal(t, kind, obj.GetTypeMeta().Kind, "New(%s)", kind)
	}
	allVerbs := []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	tests := []struct {
		resource, kind, singular string
		shortNames               []string
	}{
		{"deployments", "Deployment", "deployment", []string{"deploy"}},
		{"replicasets", "ReplicaSet", "replicaset", []string{"rs"}},
		{"statefulsets", "StatefulSet", "statefulset", []string{"sts"}},
	}
	for _, tc := range tests {
		info, ok := s.Resource(SchemeGroupVersion.WithResource(tc.resource))
		require.True(t, ok, "resource %s registered", tc.resource)
		assert.Equal(t, tc.kind, info.Kind, "%s kind", tc.resource)
		assert.Equal(t, tc.singular, info.SingularName, "%s singularName", tc.resource)
		assert.True(t, info.Namespaced, "%s namespaced", tc.resource)
		assert.Equal(t, allVerbs, info.Verbs, "%s verbs", tc.resource)
		assert.Equal(t, tc.shortNames, info.ShortNames, "%s shortNames", tc.resource)
		assert.Equal(t, []string{"all"}, info.Categories, "%s categories", tc.resource)
		assert.Equal(t, []string{"status", "scale"}, info.Subresources, "%s subresources", tc.resource)
	}
	assert.Len(t, s.Resources(), len(tests), "no other resources")
}
