package client_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// byGroupResource indexes resources by group and resource, failing the
// test if one comes twice.
func byGroupResource(t *testing.T, infos []runtime.ResourceInfo) map[runtime.GroupResource]runtime.ResourceInfo {
	t.Helper()
	out := map[runtime.GroupResource]runtime.ResourceInfo{}
	for _, info := range infos {
		gr := info.GVR.GroupResource()
		_, dup := out[gr]
		require.False(t, dup, "%s listed twice", gr)
		out[gr] = info
	}
	return out
}

func TestDiscoveryGroupsAndResources(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		d := client.NewDiscoveryClient(cs.Client())
		groups, err := d.ServerGroups(t.Context())
		require.NoError(t, err, "ServerGroups")
		require.NotEmpty(t, groups.Groups)
		assert.Empty(t, groups.Groups[0].Name, "the legacy core group comes first")
		assert.Equal(t, "v1", groups.Groups[0].PreferredVersion.GroupVersion)
		var names []string
		for _, g := range groups.Groups {
			names = append(names, g.Name)
		}
		assert.Contains(t, names, "apps")

		core, err := d.ServerResourcesForGroupVersion(t.Context(), runtime.GroupVersion{Version: "v1"})
		require.NoError(t, err, "resources of v1")
		pods := byGroupResource(t, core)[runtime.GroupResource{Resource: "pods"}]
		assert.Equal(t, "Pod", pods.Kind)
		assert.Equal(t, "pod", pods.SingularName)
		assert.True(t, pods.Namespaced)
		assert.Contains(t, pods.ShortNames, "po")
		assert.Contains(t, pods.Categories, "all")
		assert.Subset(t, pods.Subresources, []string{"status", "binding"}, "subresources fold into their resource")
		assert.Subset(t, pods.Verbs, []string{"create", "delete", "get", "list", "watch"})

		_, err = d.ServerResourcesForGroupVersion(t.Context(), runtime.GroupVersion{Group: "example.com", Version: "v1"})
		assert.True(t, apierrors.IsNotFound(err), "a group version not served: %v", err)
	})
}

// A CRD's resource appears in discovery once, at its preferred version,
// with its names, and goes when the CRD goes.
func TestDiscoveryFollowsCRDs(t *testing.T) {
	cs := newClientset(t, connectInMemory(t))
	d := client.NewDiscoveryClient(cs.Client())
	installCRD(t, cs.Client(), developersCRD())

	infos, err := d.ServerPreferredResources(t.Context())
	require.NoError(t, err, "ServerPreferredResources")
	all := byGroupResource(t, infos)
	dev, ok := all[developersGVR.GroupResource()]
	require.True(t, ok, "developers discovered: %v", infos)
	assert.Equal(t, developersGVR, dev.GVR, "at the preferred version")
	assert.Equal(t, "Developer", dev.Kind)
	assert.True(t, dev.Namespaced)
	assert.Equal(t, []string{"devs"}, dev.ShortNames)
	assert.Equal(t, []string{"all"}, dev.Categories)
	assert.Equal(t, []string{"status"}, dev.Subresources)
	assert.Equal(t, "v1", all[runtime.GroupResource{Resource: "pods"}].GVR.Version)
	assert.Equal(t, "v1", all[runtime.GroupResource{Group: "apps", Resource: "deployments"}].GVR.Version)

	beta, err := d.ServerResourcesForGroupVersion(t.Context(), runtime.GroupVersion{Group: "example.com", Version: "v1beta1"})
	require.NoError(t, err, "the other version is served too")
	require.Len(t, beta, 1)
	assert.Equal(t, "v1beta1", beta[0].GVR.Version)

	// The server stops serving a version when its watches end: watching
	// both versions tells when the deleted CRD is no longer served, which
	// follows its DELETED event a moment later.
	var watches []watch.Interface
	for _, v := range []string{"v1", "v1beta1"} {
		gvr := developersGVR
		gvr.Version = v
		r, err := client.NewDynamicResource(t.Context(), cs.Client(), gvr)
		require.NoError(t, err)
		w, err := r.Watch(t.Context(), client.ListOptions{})
		require.NoError(t, err, "watch developers at %s", v)
		defer w.Stop()
		watches = append(watches, w)
	}
	crds, err := client.NewDynamicResource(t.Context(), cs.Client(),
		runtime.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	require.NoError(t, err)
	require.NoError(t, crds.Delete(t.Context(), "developers.example.com", metav1.DeleteOptions{}))
	clustertest.WaitFor(t, crds, "developers.example.com", "to be gone",
		func(_ *unstructured.Unstructured, found bool) bool { return !found })
	for _, w := range watches {
		clustertest.WaitClosed(t, w)
	}
	infos, err = d.ServerPreferredResources(t.Context())
	require.NoError(t, err)
	_, ok = byGroupResource(t, infos)[developersGVR.GroupResource()]
	assert.False(t, ok, "developers no longer discovered once its CRD is gone")
}

// failingTransport answers code to every request for one path.
type failingTransport struct {
	path string
	code int
	next http.RoundTripper
}

func (f failingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == f.path {
		if req.Body != nil {
			req.Body.Close()
		}
		return &http.Response{StatusCode: f.code, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
	}
	return f.next.RoundTrip(req)
}

// A group version that cannot be read fails only itself: the others'
// resources come back, with an error naming it. One that answers 404 went
// away after /apis listed it: it serves nothing, and is no failure.
func TestDiscoveryPartialFailure(t *testing.T) {
	api := apiservertest.New(t)
	appsV1 := runtime.GroupVersion{Group: "apps", Version: "v1"}
	for _, code := range []int{http.StatusInternalServerError, http.StatusNotFound} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			c, err := client.New(client.Config{Host: "http://in-memory", BearerToken: apiservertest.AdminToken,
				Transport: failingTransport{path: "/apis/apps/v1", code: code, next: client.NewInMemoryTransport(api.Handler())}})
			require.NoError(t, err)

			infos, err := client.NewDiscoveryClient(c).ServerPreferredResources(t.Context())
			if code == http.StatusNotFound {
				require.NoError(t, err)
			} else {
				var failed *client.GroupDiscoveryFailedError
				require.True(t, errors.As(err, &failed), "a GroupDiscoveryFailedError: %v", err)
				require.Len(t, failed.Groups, 1)
				assert.True(t, apierrors.IsInternalError(failed.Groups[appsV1]), "%v", failed.Groups)
			}
			all := byGroupResource(t, infos)
			assert.Contains(t, all, runtime.GroupResource{Resource: "pods"}, "the other groups are still listed")
			assert.NotContains(t, all, runtime.GroupResource{Group: "apps", Resource: "deployments"})
		})
	}
}
