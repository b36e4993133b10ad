package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/storage"
)

// TestListItemsHaveNoKind: the items of a LIST of a built-in kind carry
// no kind and apiVersion, as kube-apiserver's do, whether the list is
// served by the watch cache or by etcd, and neither do those of a
// collection DELETE's answer; the list itself says what it is. Clearing
// them leaves the watch cache's objects, which every reader shares,
// untouched.
func TestListItemsHaveNoKind(t *testing.T) {
	s := newTestServer(t)
	s.createPod("a", nil)
	last := s.createPod("b", nil).ResourceVersion

	// At last (not older than it) from the watch cache, and latest from
	// etcd.
	for _, rv := range []string{last, ""} {
		r := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods?resourceVersion="+rv, "")
		var list struct {
			Kind       string           `json:"kind"`
			APIVersion string           `json:"apiVersion"`
			Items      []map[string]any `json:"items"`
		}
		require.NoError(t, json.Unmarshal(r.body, &list), "resourceVersion=%q: %s", rv, r.body)
		assert.Equal(t, "PodList", list.Kind, "resourceVersion=%q", rv)
		assert.Equal(t, "v1", list.APIVersion, "resourceVersion=%q", rv)
		require.Len(t, list.Items, 2, "resourceVersion=%q", rv)
		for _, item := range list.Items {
			assert.NotContains(t, item, "kind", "resourceVersion=%q: item %v", rv, item["metadata"])
			assert.NotContains(t, item, "apiVersion", "resourceVersion=%q: item %v", rv, item["metadata"])
		}
	}

	store, ok := s.api.Store(corev1.SchemeGroupVersion.WithResource("pods"))
	require.True(t, ok, "pods are served")
	cached, err := store.Storage.GetList(t.Context(), store.KeyRoot()+"/default/", storage.ListOptions{ResourceVersion: last, Recursive: true})
	require.NoError(t, err, "list the watch cache")
	require.Len(t, cached.Items, 2)
	for _, obj := range cached.Items {
		assert.Equal(t, "Pod", obj.GetTypeMeta().Kind, "the watch cache's object keeps its kind")
	}

	// A single object says what it is.
	pod := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/a", "").pod(t)
	assert.Equal(t, "Pod", pod.Kind)
	assert.Equal(t, "v1", pod.APIVersion)

	// A DELETE of the collection answers with a list: its items have no
	// kind either.
	r := s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods", "")
	var deleted struct {
		Kind  string           `json:"kind"`
		Items []map[string]any `json:"items"`
	}
	require.NoError(t, json.Unmarshal(r.body, &deleted), "%s", r.body)
	assert.Equal(t, "PodList", deleted.Kind)
	require.Len(t, deleted.Items, 2)
	for _, item := range deleted.Items {
		assert.NotContains(t, item, "kind", "deleted item %v", item["metadata"])
	}
}

// TestTableRowObjectsHaveKind: a Table of a list with
// ?includeObject=Object carries whole objects in its rows, and those say
// what they are (kubectl decodes them for --sort-by), although the LIST's
// items do not.
func TestTableRowObjectsHaveKind(t *testing.T) {
	s := newTestServer(t)
	s.createPod("a", nil)

	r := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods?includeObject=Object", "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"))
	var table struct {
		Rows []struct {
			Object map[string]any `json:"object"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal(r.body, &table), "%s", r.body)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, "Pod", table.Rows[0].Object["kind"])
	assert.Equal(t, "v1", table.Rows[0].Object["apiVersion"])

	// The LIST after it is not changed by it.
	list := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods", "")
	assert.NotContains(t, string(list.body), `"kind":"Pod"`)
}
