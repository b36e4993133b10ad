package openapi

import (
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/openapi3"
)

// recordingTransport records the paths a client requests.
type recordingTransport struct {
	next http.RoundTripper
	mu   sync.Mutex
	// paths guarded by mu.
	paths []string
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.paths = append(r.paths, req.URL.Path)
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

// TestClientGoAggregatedDiscovery: client-go learns every group, version
// and resource from the two aggregated documents, without asking for any
// group/version's resource list.
func TestClientGoAggregatedDiscovery(t *testing.T) {
	s := newServer(t)
	rec := &recordingTransport{}
	cfg := s.restConfig()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { rec.next = rt; return rec }
	client := discovery.NewDiscoveryClientForConfigOrDie(cfg)

	groups, resources, err := client.ServerGroupsAndResources()
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"/api", "/apis"}, rec.paths, "aggregated discovery needs two requests")

	var names []string
	for _, g := range groups {
		names = append(names, g.Name)
	}
	assert.Subset(t, names, []string{"", "apps", "batch", "coordination.k8s.io", "apiextensions.k8s.io"})
	byGV := map[string]map[string][]string{}
	for _, list := range resources {
		byGV[list.GroupVersion] = map[string][]string{}
		for _, r := range list.APIResources {
			byGV[list.GroupVersion][r.Name] = r.ShortNames
		}
	}
	assert.Equal(t, []string{"po"}, byGV["v1"]["pods"])
	assert.Contains(t, byGV["v1"], "pods/status")
	assert.Equal(t, []string{"deploy"}, byGV["apps/v1"]["deployments"])
	assert.Contains(t, byGV["apps/v1"], "deployments/scale")
	assert.True(t, slices.ContainsFunc(resources, func(l *metav1.APIResourceList) bool { return l.GroupVersion == "batch/v1" }))
}

// TestClientGoOpenAPIV3: client-go's OpenAPI v3 client, which kubectl
// explain and apply use, lists the group/versions and parses their
// documents into kube-openapi's types.
func TestClientGoOpenAPIV3(t *testing.T) {
	s := newServer(t)
	root := openapi3.NewRoot(discovery.NewDiscoveryClientForConfigOrDie(s.restConfig()).OpenAPIV3())
	gvs, err := root.GroupVersions()
	require.NoError(t, err)
	assert.Contains(t, gvs, schema.GroupVersion{Group: "apps", Version: "v1"})
	for _, gv := range []schema.GroupVersion{{Version: "v1"}, {Group: "apps", Version: "v1"}, {Group: "batch", Version: "v1"}} {
		spec, err := root.GVSpec(gv)
		require.NoError(t, err, "GVSpec(%s)", gv)
		require.NotNil(t, spec.Components, "%s has components", gv)
		assert.NotEmpty(t, spec.Components.Schemas, "%s has schemas", gv)
		assert.NotEmpty(t, spec.Paths.Paths, "%s has paths", gv)
	}
	spec, err := root.GVSpec(schema.GroupVersion{Version: "v1"})
	require.NoError(t, err)
	containers := spec.Components.Schemas["io.k8s.api.core.v1.PodSpec"].Properties["containers"]
	assert.Equal(t, "name", containers.Extensions["x-kubernetes-patch-merge-key"], "kubectl apply reads the merge key here")
}
