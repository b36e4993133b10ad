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

	for _, kind := range []string{"Namespace", "NamespaceList", "Pod", "PodList", "Node", "NodeList", "Binding", "Event", "EventList",
		"Service", "ServiceList", "Endpoints", "EndpointsList", "ConfigMap", "ConfigMapList", "Secret", "SecretList",
		"ServiceAccount", "ServiceAccountList", "ResourceQuota", "ResourceQuotaList", "LimitRange", "LimitRangeList"} {
		gvk := SchemeGroupVersion.WithKind(kind)
		obj, err := s.New(gvk)
		require.NoError(t, err, "New(%s)", gvk)
		assert.Equal(t, "v1", obj.GetTypeMeta().APIVersion, "New(%s)", gvk)
		assert.Equal(t, kind, obj.GetTypeMeta().Kind, "New(%s)", gvk)
	}
	gvk, err := s.ObjectKind(&Pod{})
	require.NoError(t, err)
	assert.Equal(t, runtime.GroupVersionKind{Version: "v1", Kind: "Pod"}, gvk)

	tests := []struct {
		resource     string
		kind         string
		singular     string
		namespaced   bool
		verbs        []string
		shortNames   []string
		categories   []string
		subresources []string
	}{
		{
			resource: "namespaces", kind: "Namespace", singular: "namespace",
			verbs:      []string{"create", "delete", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"ns"}, subresources: []string{"status", "finalize"},
		},
		{
			resource: "pods", kind: "Pod", singular: "pod", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"po"}, categories: []string{"all"}, subresources: []string{"status", "binding"},
		},
		{
			resource: "nodes", kind: "Node", singular: "node",
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"no"}, subresources: []string{"status"},
		},
		{
			resource: "bindings", kind: "Binding", singular: "binding", namespaced: true,
			verbs: []string{"create"},
		},
		{
			resource: "events", kind: "Event", singular: "event", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"ev"},
		},
		{
			resource: "services", kind: "Service", singular: "service", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"svc"}, categories: []string{"all"}, subresources: []string{"status"},
		},
		{
			resource: "endpoints", kind: "Endpoints", singular: "endpoints", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"ep"},
		},
		{
			resource: "configmaps", kind: "ConfigMap", singular: "configmap", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"cm"},
		},
		{
			resource: "secrets", kind: "Secret", singular: "secret", namespaced: true,
			verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
		},
		{
			resource: "serviceaccounts", kind: "ServiceAccount", singular: "serviceaccount", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"sa"}, subresources: []string{"token"},
		},
		{
			resource: "resourcequotas", kind: "ResourceQuota", singular: "resourcequota", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"quota"}, subresources: []string{"status"},
		},
		{
			resource: "limitranges", kind: "LimitRange", singular: "limitrange", namespaced: true,
			verbs:      []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
			shortNames: []string{"limits"},
		},
	}
	for _, tc := range tests {
		info, ok := s.Resource(SchemeGroupVersion.WithResource(tc.resource))
		require.True(t, ok, "resource %s registered", tc.resource)
		assert.Equal(t, tc.kind, info.Kind, "%s kind", tc.resource)
		assert.Equal(t, tc.singular, info.SingularName, "%s singularName", tc.resource)
		assert.Equal(t, tc.namespaced, info.Namespaced, "%s namespaced", tc.resource)
		assert.Equal(t, tc.verbs, info.Verbs, "%s verbs", tc.resource)
		assert.Equal(t, tc.shortNames, info.ShortNames, "%s shortNames", tc.resource)
		assert.Equal(t, tc.categories, info.Categories, "%s categories", tc.resource)
		assert.Equal(t, tc.subresources, info.Subresources, "%s subresources", tc.resource)
	}
	assert.Len(t, s.Resources(), len(tests), "no other resources")

	info, _ := s.Resource(SchemeGroupVersion.WithResource("pods"))
	info.Verbs[0] = "mutated"
	assert.Equal(t, "create", runtime.AllVerbs[0], "resources do not share runtime.AllVerbs")
}
