package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestCustomResourceNegotiation: custom resources are never protobuf,
// as in kube-apiserver: a protobuf-only client gets 406 (itself a
// protobuf Status), one that also accepts JSON gets JSON, and their
// metadata is served as protobuf like any other.
func TestCustomResourceNegotiation(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(developersCRD)
	const developers = "/apis/example.com/v1/namespaces/default/developers"
	created := decodeUnstructured(t, s.mustDo(http.StatusCreated, "POST", developers,
		`{"apiVersion":"example.com/v1","kind":"Developer","metadata":{"name":"ada"},"spec":{"language":"go"}}`).body)

	st := decodeProtobuf[metav1.Status](t, s.mustDo(http.StatusNotAcceptable, "GET", developers+"/ada", "", withHeader("Accept", protobufAccept)))
	assert.Equal(t, metav1.StatusReasonNotAcceptable, st.Reason)
	s.mustDo(http.StatusNotAcceptable, "POST", developers, `{"apiVersion":"example.com/v1","kind":"Developer","metadata":{"name":"bob"}}`,
		withHeader("Accept", protobufAccept))
	s.mustDo(http.StatusNotFound, "GET", developers+"/bob", "")

	r := s.mustDo(http.StatusOK, "GET", developers+"/ada", "", withHeader("Accept", clientGoAccept))
	assert.Equal(t, "application/json", r.header.Get("Content-Type"), "a protobuf-first client gets JSON")
	assert.Equal(t, created, decodeUnstructured(t, r.body))

	meta := decodeProtobuf[metav1.PartialObjectMetadata](t, s.mustDo(http.StatusOK, "GET", developers+"/ada", "", withHeader("Accept", metadataAccept)))
	assert.Equal(t, created.ObjectMeta, meta.ObjectMeta, "metadata of the custom resource, in protobuf")
	list := decodeProtobuf[metav1.PartialObjectMetadataList](t, s.mustDo(http.StatusOK, "GET", developers, "", withHeader("Accept", metadataListAccept)))
	require.Len(t, list.Items, 1, "metadata list of the custom resources")
	assert.Equal(t, created.ObjectMeta, list.Items[0].ObjectMeta)

	w := s.openProtobufWatch(developers+"?watch=true&resourceVersion=0", metadataAccept)
	typ, got := nextObject[metav1.PartialObjectMetadata](t, w)
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, created.ObjectMeta, got.ObjectMeta, "metadata watch of the custom resource")

	js := s.openWatch(developers+"?watch=true&resourceVersion=0", withHeader("Accept", clientGoAccept))
	ev := js.next()
	assert.Equal(t, "application/json", js.resp.Header.Get("Content-Type"), "a protobuf-first client watches in JSON")
	var obj map[string]any
	require.NoError(t, json.Unmarshal(ev.Object, &obj), "decode %s", ev.Object)
	assert.Equal(t, "Developer", obj["kind"])
}
