package webview_test

import (
	"bufio"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// The JSON the page reads, as a test decodes it.
type (
	pod struct {
		Namespace, Name, Phase, IP, Node string
	}
	clusterJSON struct {
		Tracing bool
		Nodes   []struct {
			Name  string
			Ready bool
			Pods  []pod
		}
		Pending []pod
	}
	objectsJSON struct {
		Kinds []struct {
			Group, Resource, Kind string
			Custom                bool
			Count                 int
			Names                 []string
		}
	}
	sequenceJSON struct {
		Tracing, Found bool
		Message        string
		Lanes          []struct{ ID, Title string }
		Steps          []struct {
			Hop, Component, From, Lane string
			Attrs                      map[string]string
		}
	}
	schedulingJSON struct {
		Tracing, Found, Bound bool
		Message, Pod, Node    string
		Feasible              int
		Plugins               []string
		Nodes                 []struct {
			Name, Filter string
			Scores       map[string]int64
			Total        *int64
			Chosen       bool
		}
	}
	watchCacheJSON struct {
		Resources []struct {
			Group, Version, Resource                      string
			Capacity, Events, Objects, Watchers           int
			WindowRV, OldestRV, NewestRV, ResourceVersion int64
		}
	}
	requestsJSON struct {
		Tracing  bool
		Requests []struct{ Verb, Resource, Namespace, Name string }
	}
	statusJSON struct {
		Kind, Status, Reason string
		Code                 int
	}
)

var wantLanes = []string{"client", "authn", "authz", "admission", "validation", "etcd", "watchcache",
	"informers", "controller", "scheduler", "kubelet", "status"}

// TestEndpoints reads every JSON endpoint of a traced cluster with two
// nodes, a running pod and a custom resource.
func TestEndpoints(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	v := startView(t, 2, true, clustertest.WithCRDPaths("testdata/widgets-crd.yaml"))
	p := v.createPod(t, "web")
	widgets, err := client.NewDynamicResource(t.Context(), v.c.Clientset().Client(),
		runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
	require.NoError(t, err)
	_, err = widgets.Namespace("default").Create(t.Context(), &unstructured.Unstructured{
		TypeMeta: metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: metav1.ObjectMeta{Name: "w1"},
	}, client.WriteOptions{})
	require.NoError(t, err, "create widget w1")

	t.Run("cluster", func(t *testing.T) {
		got := waitView(t, v, "/api/cluster", "pod web running on its node", func(c clusterJSON) bool {
			for _, n := range c.Nodes {
				if slices.ContainsFunc(n.Pods, func(q pod) bool { return q.Name == "web" && q.Phase == "Running" && q.IP != "" }) {
					return true
				}
			}
			return false
		})
		assert.True(t, got.Tracing)
		require.Len(t, got.Nodes, 2, "two nodes")
		for _, n := range got.Nodes {
			assert.True(t, n.Ready, "node %s ready", n.Name)
			for _, q := range n.Pods {
				assert.Equal(t, p.Spec.NodeName, n.Name, "pod %s under the node it is bound to", q.Name)
				assert.Equal(t, p.Status.PodIP, q.IP)
			}
		}
		assert.Empty(t, got.Pending)
	})

	t.Run("objects", func(t *testing.T) {
		got := waitView(t, v, "/api/objects", "the widget listed", func(o objectsJSON) bool {
			return slices.ContainsFunc(o.Kinds, func(k struct {
				Group, Resource, Kind string
				Custom                bool
				Count                 int
				Names                 []string
			}) bool {
				return k.Kind == "Widget" && k.Count == 1
			})
		})
		kinds := map[string]int{}
		for i, k := range got.Kinds {
			kinds[k.Kind] = i
		}
		require.Contains(t, kinds, "Pod")
		assert.Contains(t, got.Kinds[kinds["Pod"]].Names, "default/web")
		assert.Equal(t, 2, got.Kinds[kinds["Node"]].Count, "nodes")
		assert.Contains(t, got.Kinds[kinds["Namespace"]].Names, "kube-system", "cluster-scoped names have no namespace")
		w := got.Kinds[kinds["Widget"]]
		assert.True(t, w.Custom, "a CRD's kind")
		assert.Equal(t, []string{"default/w1"}, w.Names)
		assert.Equal(t, "Widget", got.Kinds[len(got.Kinds)-1].Kind, "custom kinds after the built-in ones")
	})

	t.Run("sequence", func(t *testing.T) {
		want := []string{
			"client request", "authn authn", "authz authz", "admission admission.mutating", "validation validation",
			"etcd etcd.txn", "watchcache watchcache.dispatch", "informers informer.delta", "scheduler scheduler.cycle",
			"scheduler scheduler.bind", "kubelet kubelet.sync", "kubelet runtime.container.start", "status request",
		}
		got := waitView(t, v, "/api/sequence?resource=pods&namespace=default&name=web", "the create's hops up to the status write",
			func(s sequenceJSON) bool { return isSubsequence(want, laneHops(s)) })
		assert.True(t, got.Found)
		ids := make([]string, len(got.Lanes))
		for i, l := range got.Lanes {
			ids[i] = l.ID
		}
		assert.Equal(t, wantLanes, ids, "the lanes, left to right")
		assert.Equal(t, "client", got.Steps[0].From, "the create comes from the client")
		assert.Equal(t, "client", got.Steps[1].From, "authn follows the request")
		assert.Equal(t, "authn", got.Steps[2].From, "authz follows authn")

		var missing sequenceJSON
		assert.Equal(t, http.StatusOK, v.get(t, "/api/sequence?resource=pods&name=nope", &missing))
		assert.False(t, missing.Found)
		assert.Contains(t, missing.Message, "no traced create of pods nope")
	})

	t.Run("requests", func(t *testing.T) {
		var got requestsJSON
		require.Equal(t, http.StatusOK, v.get(t, "/api/requests", &got))
		assert.True(t, got.Tracing)
		assert.Contains(t, got.Requests, struct{ Verb, Resource, Namespace, Name string }{"create", "pods", "default", "web"})
		for _, r := range got.Requests {
			assert.NotEqual(t, "leases", r.Resource, "heartbeats are left out")
		}
	})

	t.Run("scheduling", func(t *testing.T) {
		got := waitView(t, v, "/api/scheduling?namespace=default&name=web", "web's scheduling cycle bound",
			func(s schedulingJSON) bool { return s.Found && s.Bound })
		assert.Equal(t, "default/web", got.Pod)
		assert.Equal(t, p.Spec.NodeName, got.Node, "the node the pod is bound to")
		assert.Equal(t, 2, got.Feasible)
		assert.NotEmpty(t, got.Plugins, "score plugins")
		require.Len(t, got.Nodes, 2)
		for _, n := range got.Nodes {
			assert.Equal(t, "fit", n.Filter, "node %s", n.Name)
			assert.Equal(t, n.Name == p.Spec.NodeName, n.Chosen, "node %s chosen", n.Name)
			require.NotNil(t, n.Total, "node %s total", n.Name)
			assert.Len(t, n.Scores, len(got.Plugins), "a score per plugin on %s", n.Name)
		}
	})

	t.Run("watchcache", func(t *testing.T) {
		var got watchCacheJSON
		require.Equal(t, http.StatusOK, v.get(t, "/api/watchcache", &got))
		i := slices.IndexFunc(got.Resources, func(r struct {
			Group, Version, Resource                      string
			Capacity, Events, Objects, Watchers           int
			WindowRV, OldestRV, NewestRV, ResourceVersion int64
		}) bool {
			return r.Group == "" && r.Resource == "pods"
		})
		require.GreaterOrEqual(t, i, 0, "pods in %+v", got.Resources)
		pods := got.Resources[i]
		assert.Positive(t, pods.Capacity)
		assert.GreaterOrEqual(t, pods.Watchers, 2, "the scheduler's, the kubelets' and the web view's watches")
		assert.Positive(t, pods.NewestRV)
		assert.Equal(t, 1, pods.Objects)
	})
}

// TestTracingOff checks what the web view of an untraced cluster says,
// and that every bad request is a Status.
func TestTracingOff(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	v := startView(t, 1, false)
	var c clusterJSON
	require.Equal(t, http.StatusOK, v.get(t, "/api/cluster", &c))
	assert.False(t, c.Tracing)
	var seq sequenceJSON
	require.Equal(t, http.StatusOK, v.get(t, "/api/sequence?resource=pods&name=web", &seq))
	assert.False(t, seq.Tracing)
	assert.Contains(t, seq.Message, "tracing is off")
	var sched schedulingJSON
	require.Equal(t, http.StatusOK, v.get(t, "/api/scheduling?name=web", &sched))
	assert.Contains(t, sched.Message, "tracing is off")
	var reqs requestsJSON
	require.Equal(t, http.StatusOK, v.get(t, "/api/requests", &reqs))
	assert.Empty(t, reqs.Requests)

	tests := []struct {
		method, path string
		code         int
		reason       string
	}{
		{"GET", "/api/sequence?resource=pods", http.StatusBadRequest, "BadRequest"},
		{"GET", "/api/scheduling", http.StatusBadRequest, "BadRequest"},
		{"GET", "/api/nothing", http.StatusNotFound, "NotFound"},
		{"POST", "/api/cluster", http.StatusMethodNotAllowed, "MethodNotAllowed"},
		{"DELETE", "/", http.StatusMethodNotAllowed, "MethodNotAllowed"},
	}
	for _, tc := range tests {
		var st statusJSON
		assert.Equal(t, tc.code, v.do(t, tc.method, tc.path, &st), "%s %s", tc.method, tc.path)
		assert.Equal(t, statusJSON{Kind: "Status", Status: "Failure", Reason: tc.reason, Code: tc.code}, st, "%s %s", tc.method, tc.path)
	}

	// A name that resolves to loopback is not loopback: DNS rebinding.
	for host, code := range map[string]int{"evil.example:8001": http.StatusForbidden, "localhost:8001": http.StatusOK} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, v.url+"/api/cluster", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, code, resp.StatusCode, "Host: %s", host)
	}
}

// TestPageAndEventStream checks that the page's files are served from the
// binary, and that an open event stream ends when the web view stops.
func TestPageAndEventStream(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	v := startView(t, 0, true)
	for path, want := range map[string]string{"/": "<title>minicp", "/app.js": "EventSource", "/style.css": "--accent"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, v.url+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err, path)
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
		}
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, b.String(), want, path)
	}

	changes := v.events(t)
	clustertest.Receive(t, changes, "the first change event")
	v.running.Stop()
	for range changes {
		// drained: the stream ended with the web view's context
	}
}

func laneHops(s sequenceJSON) []string {
	out := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		out[i] = st.Lane + " " + st.Hop
	}
	return out
}

// isSubsequence reports whether want appears in got in order, other
// entries between.
func isSubsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}
