package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// acceptV2 is what kubectl 1.32 asks /api and /apis for.
const acceptV2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList," +
	"application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"

func aggregated(t *testing.T, r response) metav1.APIGroupDiscoveryList {
	t.Helper()
	var list metav1.APIGroupDiscoveryList
	require.NoError(t, json.Unmarshal(r.body, &list), "decode %s", r.body)
	return list
}

func findResource(versions []metav1.APIVersionDiscovery, version, resource string) (metav1.APIResourceDiscovery, bool) {
	for _, v := range versions {
		if v.Version != version {
			continue
		}
		for _, r := range v.Resources {
			if r.Resource == resource {
				return r, true
			}
		}
	}
	return metav1.APIResourceDiscovery{}, false
}

func TestAggregatedDiscoveryCore(t *testing.T) {
	s := newTestServer(t)
	r := s.mustDo(http.StatusOK, "GET", "/api", "", withHeader("Accept", acceptV2))
	assert.Equal(t, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", r.header.Get("Content-Type"))
	list := aggregated(t, r)
	assert.Equal(t, "APIGroupDiscoveryList", list.Kind)
	assert.Equal(t, "apidiscovery.k8s.io/v2", list.APIVersion)
	require.Len(t, list.Items, 1, "/api holds the core group alone")
	core := list.Items[0]
	assert.Empty(t, core.Name, "the core group has no name")
	require.Len(t, core.Versions, 1)
	assert.Equal(t, metav1.DiscoveryFreshnessCurrent, core.Versions[0].Freshness)

	pods, ok := findResource(core.Versions, "v1", "pods")
	require.True(t, ok, "pods listed")
	assert.Equal(t, &metav1.GroupVersionKind{Version: "v1", Kind: "Pod"}, pods.ResponseKind)
	assert.Equal(t, metav1.ScopeNamespace, pods.Scope)
	assert.Equal(t, "pod", pods.SingularResource)
	assert.Equal(t, []string{"po"}, pods.ShortNames)
	assert.Equal(t, []string{"all"}, pods.Categories)
	assert.Contains(t, pods.Verbs, "watch")
	subs := map[string]metav1.APISubresourceDiscovery{}
	for _, sub := range pods.Subresources {
		subs[sub.Subresource] = sub
	}
	assert.Equal(t, []string{"get", "patch", "update"}, subs["status"].Verbs)
	assert.Equal(t, "Pod", subs["status"].ResponseKind.Kind)
	assert.Equal(t, "Binding", subs["binding"].ResponseKind.Kind)
	assert.Equal(t, []string{"create"}, subs["binding"].Verbs)
	assert.Equal(t, []string{"get"}, subs["log"].Verbs)

	nodes, ok := findResource(core.Versions, "v1", "nodes")
	require.True(t, ok, "nodes listed")
	assert.Equal(t, metav1.ScopeCluster, nodes.Scope)
}

func TestAggregatedDiscoveryGroups(t *testing.T) {
	s := newTestServer(t)
	r := s.mustDo(http.StatusOK, "GET", "/apis", "", withHeader("Accept", acceptV2))
	list := aggregated(t, r)
	var legacy metav1.APIGroupList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis", "").body, &legacy))
	require.Len(t, list.Items, len(legacy.Groups), "the same groups as the legacy /apis")
	for i, g := range list.Items {
		assert.Equal(t, legacy.Groups[i].Name, g.Name, "group %d in /apis order", i)
	}

	var apps metav1.APIGroupDiscovery
	for _, g := range list.Items {
		if g.Name == "apps" {
			apps = g
		}
	}
	deployments, ok := findResource(apps.Versions, "v1", "deployments")
	require.True(t, ok, "deployments listed under apps/v1")
	assert.Equal(t, []string{"deploy"}, deployments.ShortNames)
	var scale *metav1.APISubresourceDiscovery
	for i, sub := range deployments.Subresources {
		if sub.Subresource == "scale" {
			scale = &deployments.Subresources[i]
		}
	}
	require.NotNil(t, scale, "deployments/scale listed")
	assert.Equal(t, &metav1.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, scale.ResponseKind)
}

// TestAggregatedDiscoveryNegotiation: the document is served only when
// asked for, in the version asked for; otherwise the legacy one.
func TestAggregatedDiscoveryNegotiation(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name, path, accept string
		wantType           string
	}{
		{"v2", "/apis", acceptV2, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
		{"v2beta1 only", "/apis", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"},
		{"nopeer profile", "/api", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;profile=nopeer,application/json", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
		{"plain JSON first", "/apis", "application/json," + acceptV2, "application/json"},
		{"protobuf variant skipped", "/apis", "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json", "application/json"},
		{"no Accept", "/api", "", "application/json"},
		{"trailing slash /apis/", "/apis/", acceptV2, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
		{"trailing slash /api/", "/api/", "", "application/json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var opts []requestOption
			if tc.accept != "" {
				opts = append(opts, withHeader("Accept", tc.accept))
			}
			r := s.mustDo(http.StatusOK, "GET", tc.path, "", opts...)
			assert.Equal(t, tc.wantType, r.header.Get("Content-Type"), "GET %s (Accept: %q)", tc.path, tc.accept)
			assert.Contains(t, r.header.Values("Vary"), "Accept", "GET %s: caches must key on Accept", tc.path)
		})
	}
}

// TestAggregatedDiscoveryETag: a client holding the current document
// gets 304, and a new resource changes the ETag.
func TestAggregatedDiscoveryETag(t *testing.T) {
	s := newTestServer(t)
	first := s.mustDo(http.StatusOK, "GET", "/apis", "", withHeader("Accept", acceptV2))
	etag := first.header.Get("ETag")
	require.NotEmpty(t, etag, "aggregated discovery has an ETag")
	s.mustDo(http.StatusNotModified, "GET", "/apis", "", withHeader("Accept", acceptV2), withHeader("If-None-Match", etag))

	s.installCRD(developersCRD)
	r := s.mustDo(http.StatusOK, "GET", "/apis", "", withHeader("Accept", acceptV2), withHeader("If-None-Match", etag))
	assert.NotEqual(t, etag, r.header.Get("ETag"), "a CRD changes the document")
	var example metav1.APIGroupDiscovery
	for _, g := range aggregated(t, r).Items {
		if g.Name == "example.com" {
			example = g
		}
	}
	require.Len(t, example.Versions, 2, "the CRD's two served versions")
	assert.Equal(t, "v1", example.Versions[0].Version, "GA before beta")
	devs, ok := findResource(example.Versions, "v1", "developers")
	require.True(t, ok, "the custom resource is listed")
	assert.Equal(t, []string{"devs"}, devs.ShortNames)
	assert.Equal(t, &metav1.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Developer"}, devs.ResponseKind)
}
