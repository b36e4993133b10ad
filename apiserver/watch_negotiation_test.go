package apiserver_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/storage/storagetest"
)

// openProtobufWatch starts a watch that accepts accept, requires the
// protobuf stream's Content-Type, and decodes its length-prefixed
// WatchEvent frames in the background until the test ends or the server
// closes the stream.
func (s *testServer) openProtobufWatch(path, accept string) *watchStream {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.t.Context(), "GET", s.url+path, nil)
	require.NoError(s.t, err)
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	req.Header.Set("Accept", accept)
	resp, err := s.client.Do(req)
	require.NoError(s.t, err, "watch %s", path)
	require.Equal(s.t, http.StatusOK, resp.StatusCode, "watch %s", path)
	require.Equal(s.t, "application/vnd.kubernetes.protobuf;stream=watch", resp.Header.Get("Content-Type"), "Content-Type of watch %s", path)
	w := &watchStream{t: s.t, resp: resp, events: make(chan metav1.WatchEvent, 1000), closeCh: make(chan struct{})}
	go func() {
		defer close(w.events)
		r := bufio.NewReader(resp.Body)
		var size [4]byte
		for {
			if _, err := io.ReadFull(r, size[:]); err != nil {
				return
			}
			frame := make([]byte, binary.BigEndian.Uint32(size[:]))
			if _, err := io.ReadFull(r, frame); err != nil {
				return
			}
			var ev metav1.WatchEvent
			if runtime.DecodeProtobufRaw(frame, &ev) != nil {
				return
			}
			w.events <- ev
		}
	}()
	s.t.Cleanup(func() { resp.Body.Close() })
	return w
}

// nextObject returns the next event's type and decodes its protobuf
// object into a new T.
func nextObject[T any, PT interface {
	*T
	runtime.Object
}](t *testing.T, w *watchStream) (string, PT) {
	t.Helper()
	ev := w.next()
	obj := PT(new(T))
	require.NoError(t, runtime.DecodeProtobuf(ev.Object, obj), "decode %s event's object as %T", ev.Type, obj)
	return ev.Type, obj
}

// TestWatchProtobuf: a protobuf watch streams length-prefixed WatchEvent
// frames whose objects are protobuf bodies, as client-go reads them, and
// ends with a protobuf Status when the resourceVersion is too old.
func TestWatchProtobuf(t *testing.T) {
	prefix := storagetest.Prefix(t)
	s := newTestServer(t, func(o *apiserver.Options) { o.StoragePrefix = prefix })
	first := s.createPod("p0", nil)
	w := s.openProtobufWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion="+first.ResourceVersion, clientGoAccept)
	created := s.createPod("p1", nil)
	s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/default/pods/p1", `{"metadata":{"labels":{"x":"y"}}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/p1", "")

	typ, pod := nextObject[corev1.Pod](t, w)
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, created, pod, "the ADDED pod is the created one")
	typ, pod = nextObject[corev1.Pod](t, w)
	assert.Equal(t, "MODIFIED", typ)
	assert.Equal(t, "y", pod.Labels["x"])
	typ, pod = nextObject[corev1.Pod](t, w)
	assert.Equal(t, "DELETED", typ)
	assert.Equal(t, "p1", pod.Name)

	// A protobuf watch from before the watch cache's window (that of a
	// second server, started after p0 was written) is one ERROR event
	// whose object is a protobuf 410 Status.
	second := newTestServer(t, func(o *apiserver.Options) { o.StoragePrefix = prefix })
	expired := second.openProtobufWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion="+first.ResourceVersion, protobufAccept)
	typ, st := nextObject[metav1.Status](t, expired)
	assert.Equal(t, "ERROR", typ)
	assert.Equal(t, int32(http.StatusGone), st.Code)
}

// TestWatchPartialObjectMetadata: the metadata client's watch gets
// PartialObjectMetadata events, in protobuf and in JSON.
func TestWatchPartialObjectMetadata(t *testing.T) {
	s := newTestServer(t)
	pod := s.createPod("web", map[string]string{"app": "web"})
	const path = "/api/v1/namespaces/default/pods?watch=true&resourceVersion=0"
	want := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
		ObjectMeta: pod.ObjectMeta,
	}

	pb := s.openProtobufWatch(path, metadataAccept)
	typ, got := nextObject[metav1.PartialObjectMetadata](t, pb)
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, want, got, "protobuf watch event's object")

	js := s.openWatch(path, withHeader("Accept", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"))
	ev := js.next()
	var gotJSON metav1.PartialObjectMetadata
	require.NoError(t, json.Unmarshal(ev.Object, &gotJSON), "decode %s", ev.Object)
	assert.Equal(t, *want, gotJSON, "JSON watch event's object")
}

// TestWatchTableHeadersOnce: a Table watch, as `kubectl get -w` asks for
// it, sends the column definitions in its first event only.
func TestWatchTableHeadersOnce(t *testing.T) {
	s := newTestServer(t)
	s.createPod("a", nil)
	s.createPod("b", nil)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=0", withHeader("Accept", kubectlTableAccept))
	var tables []metav1.Table
	for range 2 {
		ev := w.next()
		var table metav1.Table
		require.NoError(t, json.Unmarshal(ev.Object, &table), "decode %s", ev.Object)
		assert.Equal(t, "Table", table.Kind)
		require.Len(t, table.Rows, 1, "rows of %s", ev.Object)
		tables = append(tables, table)
	}
	assert.NotEmpty(t, tables[0].ColumnDefinitions, "the first Table has the columns")
	assert.Empty(t, tables[1].ColumnDefinitions, "later Tables leave them out")

	s.mustDo(http.StatusBadRequest, "GET", "/api/v1/namespaces/default/pods?watch=true&includeObject=Everything", "",
		withHeader("Accept", kubectlTableAccept))
}

// TestWatchNotAcceptable: YAML has no stream framing, so a watch that
// negotiates YAML is 406, even when JSON comes after it, as in
// kube-apiserver.
func TestWatchNotAcceptable(t *testing.T) {
	s := newTestServer(t)
	for _, accept := range []string{"application/yaml", "application/yaml,application/json", "text/html"} {
		// The Status itself is in YAML when YAML is accepted.
		r := s.mustDo(http.StatusNotAcceptable, "GET", "/api/v1/namespaces/default/pods?watch=true", "", withHeader("Accept", accept))
		assert.Contains(t, string(r.body), "NotAcceptable", "Accept: %s", accept)
	}
}
