package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestPodLifecycle(t *testing.T) {
	s := newTestServer(t)

	created := s.createPod("web", map[string]string{"app": "web"})
	assert.Equal(t, "Pod", created.Kind)
	assert.Equal(t, "v1", created.APIVersion)
	assert.NotEmpty(t, created.UID, "uid is server-set")
	assert.NotEmpty(t, created.ResourceVersion, "resourceVersion is server-set")
	assert.False(t, created.CreationTimestamp.IsZero(), "creationTimestamp is server-set")
	assert.Equal(t, int64(1), created.Generation)
	assert.Equal(t, corev1.PodPending, created.Status.Phase)
	assert.Equal(t, corev1.RestartPolicyAlways, created.Spec.RestartPolicy, "defaulted by admission")

	got := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/web", "").pod(t)
	assert.Equal(t, created.UID, got.UID)
	assert.Equal(t, created.ResourceVersion, got.ResourceVersion)

	var list corev1.PodList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods", "").body, &list))
	assert.Equal(t, "PodList", list.Kind)
	require.Len(t, list.Items, 1)
	assert.NotEmpty(t, list.ResourceVersion)

	// Update: a spec change bumps generation; uid and creationTimestamp stay.
	got.Spec.Containers[0].Image = "busybox:1.36"
	got.Labels["tier"] = "fe"
	body, _ := json.Marshal(got)
	updated := s.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/default/pods/web", string(body)).pod(t)
	assert.Equal(t, "busybox:1.36", updated.Spec.Containers[0].Image)
	assert.Equal(t, int64(2), updated.Generation, "spec change bumps generation")
	assert.Equal(t, created.UID, updated.UID)
	assert.NotEqual(t, got.ResourceVersion, updated.ResourceVersion)

	// The same body again is stale now: 409 Conflict.
	r := s.mustDo(http.StatusConflict, "PUT", "/api/v1/namespaces/default/pods/web", string(body))
	assert.Equal(t, metav1.StatusReasonConflict, r.status(t).Reason)

	// Merge patch and JSON patch.
	patched := s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/default/pods/web",
		`{"metadata":{"labels":{"patched":"merge"}}}`, withHeader("Content-Type", "application/merge-patch+json")).pod(t)
	assert.Equal(t, "merge", patched.Labels["patched"])
	assert.Equal(t, int64(2), patched.Generation, "a label change does not bump generation")
	patched = s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/default/pods/web",
		`[{"op":"replace","path":"/metadata/labels/patched","value":"json"}]`,
		withHeader("Content-Type", "application/json-patch+json")).pod(t)
	assert.Equal(t, "json", patched.Labels["patched"])

	// Delete: an unscheduled pod goes at once and the pod is returned.
	deleted := s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/web", "").pod(t)
	assert.Equal(t, "web", deleted.Name)
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/web", "")
}

func TestGenerateName(t *testing.T) {
	s := newTestServer(t)
	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"job-"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`
	a := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", body).pod(t)
	b := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", body).pod(t)
	assert.Regexp(t, `^job-[a-z0-9]{5}$`, a.Name)
	assert.NotEqual(t, a.Name, b.Name)
}

func TestYAMLBody(t *testing.T) {
	s := newTestServer(t)
	manifest := `apiVersion: v1
kind: Pod
metadata:
  name: from-yaml
spec:
  containers:
  - name: c
    image: nginx
`
	p := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", manifest,
		withHeader("Content-Type", "application/yaml")).pod(t)
	assert.Equal(t, "from-yaml", p.Name)
}

func TestListSelectorsAndPagination(t *testing.T) {
	s := newTestServer(t)
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		tier := "be"
		if name < "c" {
			tier = "fe"
		}
		s.createPod(name, map[string]string{"tier": tier})
	}
	names := func(path string) ([]string, metav1.ListMeta) {
		t.Helper()
		var list corev1.PodList
		require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", path, "").body, &list))
		var out []string
		for _, p := range list.Items {
			out = append(out, p.Name)
		}
		return out, list.ListMeta
	}
	got, _ := names("/api/v1/namespaces/default/pods?labelSelector=tier%3Dfe")
	assert.Equal(t, []string{"a", "b"}, got, "label selector tier=fe")
	got, _ = names("/api/v1/namespaces/default/pods?labelSelector=tier+notin+(fe)")
	assert.Equal(t, []string{"c", "d", "e"}, got, "label selector tier notin (fe)")
	got, _ = names("/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dd")
	assert.Equal(t, []string{"d"}, got, "field selector metadata.name=d")
	got, _ = names("/api/v1/pods?fieldSelector=status.phase%3DPending")
	assert.Len(t, got, 5, "all namespaces, field selector status.phase=Pending")

	var all []string
	path := "/api/v1/namespaces/default/pods?limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5, "pagination does not end")
		page, meta := names(path)
		assert.LessOrEqual(t, len(page), 2)
		all = append(all, page...)
		if meta.Continue == "" {
			break
		}
		path = "/api/v1/namespaces/default/pods?limit=2&continue=" + meta.Continue
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, all, "every page together")
}

func TestDeleteCollection(t *testing.T) {
	s := newTestServer(t)
	s.createPod("keep", map[string]string{"app": "keep"})
	s.createPod("drop1", map[string]string{"app": "drop"})
	s.createPod("drop2", map[string]string{"app": "drop"})
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods?labelSelector=app%3Ddrop", "")
	var list corev1.PodList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods", "").body, &list))
	require.Len(t, list.Items, 1)
	assert.Equal(t, "keep", list.Items[0].Name)
}

func TestDryRun(t *testing.T) {
	s := newTestServer(t)
	p := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods?dryRun=All", podJSON("dry", nil)).pod(t)
	assert.Equal(t, "dry", p.Name)
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/dry", "")
}

func TestNodesAreClusterScoped(t *testing.T) {
	s := newTestServer(t)
	node := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"capacity":{"cpu":"4","memory":"8Gi","pods":"110"}}}`
	created := s.mustDo(http.StatusCreated, "POST", "/api/v1/nodes", node)
	var n corev1.Node
	require.NoError(t, json.Unmarshal(created.body, &n))
	assert.Empty(t, n.Namespace)
	assert.Equal(t, "4", n.Status.Capacity.Cpu().String(), "a registering kubelet's status is kept")
	s.mustDo(http.StatusOK, "GET", "/api/v1/nodes/n1", "")
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/nodes/n1", "")
}
