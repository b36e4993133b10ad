package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kappsv1 "k8s.io/api/apps/v1"
	kautoscalingv1 "k8s.io/api/autoscaling/v1"
	kbatchv1 "k8s.io/api/batch/v1"
	kcoordinationv1 "k8s.io/api/coordination/v1"
	kcorev1 "k8s.io/api/core/v1"
	kdiscoveryv1 "k8s.io/api/discovery/v1"
	krbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/minicp/minicp/client"
)

// resourceCase is one resource read over HTTP, with the k8s.io/api types
// its objects and lists decode into.
type resourceCase struct {
	// prefix is the group version's path, "/api/v1" or "/apis/apps/v1".
	prefix     string
	resource   string
	namespaced bool
	kind       string
	newObject  func() kruntime.Object
	newList    func() kruntime.Object
	// min is how many objects the flows leave at least.
	min int
}

var resourceCases = []resourceCase{
	{"/api/v1", "namespaces", false, "Namespace", func() kruntime.Object { return &kcorev1.Namespace{} }, func() kruntime.Object { return &kcorev1.NamespaceList{} }, 5},
	{"/api/v1", "nodes", false, "Node", func() kruntime.Object { return &kcorev1.Node{} }, func() kruntime.Object { return &kcorev1.NodeList{} }, 2},
	{"/api/v1", "pods", true, "Pod", func() kruntime.Object { return &kcorev1.Pod{} }, func() kruntime.Object { return &kcorev1.PodList{} }, 5},
	{"/api/v1", "events", true, "Event", func() kruntime.Object { return &kcorev1.Event{} }, func() kruntime.Object { return &kcorev1.EventList{} }, 5},
	{"/api/v1", "services", true, "Service", func() kruntime.Object { return &kcorev1.Service{} }, func() kruntime.Object { return &kcorev1.ServiceList{} }, 3},
	{"/api/v1", "endpoints", true, "Endpoints", func() kruntime.Object { return &kcorev1.Endpoints{} }, func() kruntime.Object { return &kcorev1.EndpointsList{} }, 3},
	{"/api/v1", "configmaps", true, "ConfigMap", func() kruntime.Object { return &kcorev1.ConfigMap{} }, func() kruntime.Object { return &kcorev1.ConfigMapList{} }, 1},
	{"/api/v1", "secrets", true, "Secret", func() kruntime.Object { return &kcorev1.Secret{} }, func() kruntime.Object { return &kcorev1.SecretList{} }, 1},
	{"/api/v1", "serviceaccounts", true, "ServiceAccount", func() kruntime.Object { return &kcorev1.ServiceAccount{} }, func() kruntime.Object { return &kcorev1.ServiceAccountList{} }, 1},
	{"/apis/coordination.k8s.io/v1", "leases", true, "Lease", func() kruntime.Object { return &kcoordinationv1.Lease{} }, func() kruntime.Object { return &kcoordinationv1.LeaseList{} }, 2},
	{"/apis/discovery.k8s.io/v1", "endpointslices", true, "EndpointSlice", func() kruntime.Object { return &kdiscoveryv1.EndpointSlice{} }, func() kruntime.Object { return &kdiscoveryv1.EndpointSliceList{} }, 2},
	{"/apis/rbac.authorization.k8s.io/v1", "clusterroles", false, "ClusterRole", func() kruntime.Object { return &krbacv1.ClusterRole{} }, func() kruntime.Object { return &krbacv1.ClusterRoleList{} }, 10},
	{"/apis/rbac.authorization.k8s.io/v1", "clusterrolebindings", false, "ClusterRoleBinding", func() kruntime.Object { return &krbacv1.ClusterRoleBinding{} }, func() kruntime.Object { return &krbacv1.ClusterRoleBindingList{} }, 5},
	{"/apis/apps/v1", "deployments", true, "Deployment", func() kruntime.Object { return &kappsv1.Deployment{} }, func() kruntime.Object { return &kappsv1.DeploymentList{} }, 1},
	{"/apis/apps/v1", "replicasets", true, "ReplicaSet", func() kruntime.Object { return &kappsv1.ReplicaSet{} }, func() kruntime.Object { return &kappsv1.ReplicaSetList{} }, 2},
	{"/apis/batch/v1", "jobs", true, "Job", func() kruntime.Object { return &kbatchv1.Job{} }, func() kruntime.Object { return &kbatchv1.JobList{} }, 2},
}

// TestFlowObjectsAreKubernetesJSON starts a cluster, runs the flows
// (runFlows), and then reads every object of every built-in resource over
// HTTP as JSON: each LIST, across namespaces and in the flows' namespace,
// and each object's GET. Every body must be what kube-apiserver would
// send for the same object (checkKubernetesJSON), and LIST items carry no
// kind or apiVersion while a GET's object does.
func TestFlowObjectsAreKubernetesJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	c, cs := startCluster(t)
	runFlows(t, cs)
	api := apiReader{client: c.HTTPClient(), base: c.URL()}

	for _, rc := range resourceCases {
		t.Run(rc.resource, func(t *testing.T) {
			paths := []string{rc.prefix + "/" + rc.resource}
			if rc.namespaced {
				paths = append(paths, rc.prefix+"/namespaces/"+ns+"/"+rc.resource)
			}
			var items []kruntime.Object
			for i, path := range paths {
				list := rc.newList()
				if !checkKubernetesJSON(t, path, api.get(t, path, http.StatusOK), list) {
					continue // not decoded: nothing more to check
				}
				assert.Equal(t, rc.kind+"List", list.GetObjectKind().GroupVersionKind().Kind, "%s: the list's kind", path)
				listed, err := meta.ExtractList(list)
				require.NoError(t, err, "%s: items", path)
				for _, item := range listed {
					assert.True(t, item.GetObjectKind().GroupVersionKind().Empty(),
						"%s: an item says it is %v; kube-apiserver sends LIST items without kind and apiVersion", path, item.GetObjectKind().GroupVersionKind())
				}
				if i == 0 {
					items = listed
				}
			}
			require.GreaterOrEqual(t, len(items), rc.min, "objects the flows leave")
			for _, item := range items {
				m, err := meta.Accessor(item)
				require.NoError(t, err)
				path := rc.prefix + "/" + rc.resource + "/" + m.GetName()
				if rc.namespaced {
					path = rc.prefix + "/namespaces/" + m.GetNamespace() + "/" + rc.resource + "/" + m.GetName()
				}
				body, found := api.getIfFound(t, path)
				if !found {
					continue // deleted since the LIST (a replaced pod): nothing to compare
				}
				obj := rc.newObject()
				if checkKubernetesJSON(t, path, body, obj) {
					assert.Equal(t, rc.kind, obj.GetObjectKind().GroupVersionKind().Kind, "%s: a GET's object says what it is", path)
				}
			}
		})
	}

	t.Run("subresources", func(t *testing.T) {
		for path, obj := range map[string]kruntime.Object{
			"/apis/apps/v1/namespaces/" + ns + "/deployments/web/scale": &kautoscalingv1.Scale{},
			"/api/v1/namespaces/" + ns + "/pods/solo/status":            &kcorev1.Pod{},
			"/apis/batch/v1/namespaces/" + ns + "/jobs/once/status":     &kbatchv1.Job{},
		} {
			checkKubernetesJSON(t, path, api.get(t, path, http.StatusOK), obj)
		}
	})
	// Components record Events about objects they got from LISTs, whose
	// items come without kind: each Event still says what its object is,
	// as `kubectl describe` selects Events by involvedObject.kind.
	t.Run("events name their objects' kinds", func(t *testing.T) {
		events, err := cs.Events("").List(t.Context(), client.ListOptions{})
		require.NoError(t, err, "list events")
		for _, e := range events.Items {
			ref := e.InvolvedObject
			assert.True(t, ref.Kind != "" && ref.APIVersion != "", "event %s (%s by %s) is about %s/%s without its kind and apiVersion",
				e.Name, e.Reason, e.Source.Component, ref.Namespace, ref.Name)
		}
	})
	t.Run("status", func(t *testing.T) {
		path := "/api/v1/namespaces/" + ns + "/pods/missing"
		checkKubernetesJSON(t, path, api.get(t, path, http.StatusNotFound), &kmetav1.Status{})
	})
}

// apiReader reads the API over HTTP as JSON.
type apiReader struct {
	client *http.Client
	base   string
}

// get returns the body of GET path, which must answer code with JSON.
func (a apiReader) get(t *testing.T, path string, code int) []byte {
	t.Helper()
	got, body := a.do(t, path)
	require.Equal(t, code, got, "GET %s: %s", path, body)
	return body
}

// getIfFound returns the body of GET path, which must answer 200 with
// JSON, or found false when it answers 404.
func (a apiReader) getIfFound(t *testing.T, path string) (body []byte, found bool) {
	t.Helper()
	code, body := a.do(t, path)
	if code == http.StatusNotFound {
		return nil, false
	}
	require.Equal(t, http.StatusOK, code, "GET %s: %s", path, body)
	return body, true
}

// do sends GET path asking for JSON, and requires JSON back.
func (a apiReader) do(t *testing.T, path string) (code int, body []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.base+path, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	require.NoError(t, err, "GET %s", path)
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	require.NoError(t, err, "GET %s", path)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"), "GET %s: %s", path, body)
	return resp.StatusCode, body
}

// checkKubernetesJSON decodes body into into, a k8s.io/api type, and
// checks that it is the JSON kube-apiserver would write for it: decoding
// finds no field upstream's type lacks, and encoding/json, which
// kube-apiserver's JSON serializer uses, writes the same bytes back. The
// serializer ends the document with a newline (json.Encoder); body may or
// may not. It reports whether body decoded, so that the caller can go on
// checking what it holds.
func checkKubernetesJSON(t *testing.T, path string, body []byte, into kruntime.Object) (decoded bool) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		t.Errorf("%s: decode into %T: %v", path, into, err)
		return false
	}
	want, err := json.Marshal(into)
	require.NoError(t, err, "%s: encode %T", path, into)
	if got := bytes.TrimSuffix(body, []byte("\n")); !bytes.Equal(want, got) {
		t.Errorf("%s: minicp's JSON is not what %T encodes to:\n%s", path, into, diffJSON(want, got))
	}
	return true
}

// diffJSON shows where two JSON documents first differ, indented, with
// some lines of context on each side.
func diffJSON(want, got []byte) string {
	lines := func(data []byte) []string {
		var b bytes.Buffer
		if err := json.Indent(&b, data, "", "  "); err != nil {
			return strings.Split(string(data), "\n")
		}
		return strings.Split(b.String(), "\n")
	}
	w, g := lines(want), lines(got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(i-8, 0)
	return fmt.Sprintf("Kubernetes (from line %d):\n%s\nminicp:\n%s", from+1,
		strings.Join(w[from:min(i+8, len(w))], "\n"), strings.Join(g[from:min(i+8, len(g))], "\n"))
}
