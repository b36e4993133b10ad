package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/storage/storagetest"
)

func TestWatchSeesEveryChangeInOrder(t *testing.T) {
	s := newTestServer(t)
	first := s.createPod("p0", nil)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + first.ResourceVersion)

	s.createPod("p1", nil)
	s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/default/pods/p1", `{"metadata":{"labels":{"x":"y"}}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/p0", "")

	want := []struct{ typ, name string }{{"ADDED", "p1"}, {"MODIFIED", "p1"}, {"DELETED", "p0"}}
	last := int64(0)
	for _, ev := range want {
		typ, p := w.nextPod()
		assert.Equal(t, ev.typ, typ)
		assert.Equal(t, ev.name, p.Name)
		assert.Equal(t, "Pod", p.Kind, "watch objects carry their kind")
		rv, err := strconv.ParseInt(p.ResourceVersion, 10, 64)
		require.NoError(t, err)
		assert.Greater(t, rv, last, "resourceVersions increase")
		last = rv
	}
}

func TestWatchResumesFromEveryResourceVersion(t *testing.T) {
	s := newTestServer(t)
	// A history of six events; a watch from each of its resourceVersions
	// must see exactly the events after it.
	var history []string
	start := s.createPod("h0", nil)
	history = append(history, start.ResourceVersion)
	for i := 1; i <= 5; i++ {
		p := s.createPod(fmt.Sprintf("h%d", i), nil)
		history = append(history, p.ResourceVersion)
	}
	for i, rv := range history {
		w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rv)
		for _, want := range history[i+1:] {
			typ, p := w.nextPod()
			assert.Equal(t, "ADDED", typ)
			assert.Equal(t, want, p.ResourceVersion, "watch from %s", rv)
		}
	}
}

func TestWatchFromZeroStartsWithCurrentState(t *testing.T) {
	s := newTestServer(t)
	s.createPod("a", nil)
	s.createPod("b", nil)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=0")
	var names []string
	for range 2 {
		typ, p := w.nextPod()
		assert.Equal(t, "ADDED", typ)
		names = append(names, p.Name)
	}
	assert.ElementsMatch(t, []string{"a", "b"}, names)
}

func TestWatchSingleObjectByFieldSelector(t *testing.T) {
	s := newTestServer(t)
	target := s.createPod("target", nil)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dtarget&resourceVersion=" + target.ResourceVersion)
	s.createPod("other", nil)
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/target", "")
	typ, p := w.nextPod()
	assert.Equal(t, "DELETED", typ, "the other pod's ADDED is filtered out")
	assert.Equal(t, "target", p.Name)
}

func TestWatchTimeoutEndsStream(t *testing.T) {
	s := newTestServer(t)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1")
	_, ok := <-w.events
	assert.False(t, ok, "the stream ends without events")
}

// TestWatchTimeoutZeroIsUnset: timeoutSeconds=0 means "not set", as in
// kube-apiserver: the watch stays open for the server's default timeout
// rather than ending at once.
func TestWatchTimeoutZeroIsUnset(t *testing.T) {
	s := newTestServer(t)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=0")
	s.createPod("after-open", nil)
	typ, p := w.nextPod()
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, "after-open", p.Name)
}

// TestWatchAfterCompactionIsExpired: without a watch cache, a watch from
// a revision etcd has compacted is a 200 whose only event is a 410 Expired
// ERROR.
func TestWatchAfterCompactionIsExpired(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) { o.WatchCacheDisabled = true })
	old := s.createPod("old", nil)
	s.createPod("newer", nil)
	newest := s.createPod("newest", nil)
	// Compacting at newest's revision drops the revision right after old,
	// where a watch from old's resourceVersion would have to start.
	rev, err := strconv.ParseInt(newest.ResourceVersion, 10, 64)
	require.NoError(t, err)
	storagetest.Compact(t, storagetest.Client(t), rev)
	expectExpired(t, s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion="+old.ResourceVersion))
}

// TestWatchOlderThanTheCacheIsExpired: with the watch cache, a watch from
// before the cache's window is a 410 Expired ERROR too. A second API
// server on the same etcd prefix starts its cache after the pod was
// written, so the pod's revision is before its window.
func TestWatchOlderThanTheCacheIsExpired(t *testing.T) {
	prefix := storagetest.Prefix(t)
	first := newTestServer(t, func(o *apiserver.Options) { o.StoragePrefix = prefix })
	old := first.createPod("old", nil)
	first.createPod("newer", nil)
	second := newTestServer(t, func(o *apiserver.Options) { o.StoragePrefix = prefix })
	expectExpired(t, second.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion="+old.ResourceVersion))
}

func expectExpired(t *testing.T, w *watchStream) {
	t.Helper()
	ev := w.next()
	require.Equal(t, "ERROR", ev.Type, "event %s", ev.Object)
	var st metav1.Status
	require.NoError(t, json.Unmarshal(ev.Object, &st))
	assert.Equal(t, int32(http.StatusGone), st.Code)
	assert.Equal(t, metav1.StatusReasonExpired, st.Reason)
	_, open := <-w.events
	assert.False(t, open, "the stream ends after the ERROR event")
}

func TestWatchAsTable(t *testing.T) {
	s := newTestServer(t)
	p := s.createPod("t", nil)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=0",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"))
	ev := w.next()
	var table metav1.Table
	require.NoError(t, json.Unmarshal(ev.Object, &table))
	assert.Equal(t, "Table", table.Kind)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, "t", table.Rows[0].Cells[0])
	_ = p
}
