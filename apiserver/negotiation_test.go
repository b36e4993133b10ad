package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Accept headers of real clients (see also apiserver/handlers'
// negotiation table).
const (
	protobufAccept     = "application/vnd.kubernetes.protobuf"
	clientGoAccept     = "application/vnd.kubernetes.protobuf,application/json"
	kubectlTableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"
	metadataListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	metadataAccept     = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
)

// decodeProtobuf requires r to be a protobuf answer and decodes it into
// a new T.
func decodeProtobuf[T any, PT interface {
	*T
	runtime.Object
}](t *testing.T, r response) PT {
	t.Helper()
	require.Equal(t, runtime.ContentTypeProtobuf, r.header.Get("Content-Type"), "Content-Type of %q", r.body)
	obj := PT(new(T))
	require.NoError(t, runtime.DecodeProtobuf(r.body, obj), "decode protobuf %T", obj)
	return obj
}

// decodeJSON requires r to be a JSON answer and decodes it into a new T.
func decodeJSON[T any](t *testing.T, r response) *T {
	t.Helper()
	require.Equal(t, "application/json", r.header.Get("Content-Type"), "Content-Type of %s", r.body)
	obj := new(T)
	require.NoError(t, json.Unmarshal(r.body, obj), "decode %s", r.body)
	return obj
}

// TestProtobufVerbs: a client that accepts protobuf gets it from every
// verb, and the objects are the ones JSON gives; a protobuf body is read
// as such.
func TestProtobufVerbs(t *testing.T) {
	s := newTestServer(t)
	const pods = "/api/v1/namespaces/default/pods"

	body := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}
	pb, err := runtime.EncodeProtobuf(body)
	require.NoError(t, err, "EncodeProtobuf(pod)")
	created := decodeProtobuf[corev1.Pod](t, s.mustDo(http.StatusCreated, "POST", pods, string(pb),
		withHeader("Content-Type", runtime.ContentTypeProtobuf), withHeader("Accept", clientGoAccept)))
	assert.Equal(t, "Pod", created.Kind, "kind of the created pod")
	assert.Equal(t, "web", created.Name)
	assert.NotEmpty(t, created.UID)

	getJSON := decodeJSON[corev1.Pod](t, s.mustDo(http.StatusOK, "GET", pods+"/web", ""))
	getPB := decodeProtobuf[corev1.Pod](t, s.mustDo(http.StatusOK, "GET", pods+"/web", "", withHeader("Accept", protobufAccept)))
	assert.Equal(t, getJSON, getPB, "GET as protobuf is GET as JSON")
	assert.Equal(t, created, getPB, "GET returns the created pod")

	s.createPod("db", nil)
	listJSON := decodeJSON[corev1.PodList](t, s.mustDo(http.StatusOK, "GET", pods, ""))
	listPB := decodeProtobuf[corev1.PodList](t, s.mustDo(http.StatusOK, "GET", pods, "", withHeader("Accept", clientGoAccept)))
	require.Len(t, listPB.Items, 2, "LIST as protobuf")
	assert.Equal(t, "PodList", listPB.Kind)
	assert.Equal(t, listJSON.Items, listPB.Items, "LIST as protobuf lists what JSON does")
	assert.Equal(t, listJSON.ResourceVersion, listPB.ResourceVersion)

	labelled := getPB.DeepCopy()
	labelled.Labels["tier"] = "front"
	pb, err = runtime.EncodeProtobuf(labelled)
	require.NoError(t, err, "EncodeProtobuf(labelled pod)")
	updated := decodeProtobuf[corev1.Pod](t, s.mustDo(http.StatusOK, "PUT", pods+"/web", string(pb),
		withHeader("Content-Type", runtime.ContentTypeProtobuf), withHeader("Accept", protobufAccept)))
	assert.Equal(t, "front", updated.Labels["tier"], "PUT of a protobuf body")

	patched := decodeProtobuf[corev1.Pod](t, s.mustDo(http.StatusOK, "PATCH", pods+"/web", `{"metadata":{"labels":{"patched":"yes"}}}`,
		withHeader("Content-Type", "application/merge-patch+json"), withHeader("Accept", protobufAccept)))
	assert.Equal(t, "yes", patched.Labels["patched"], "PATCH answered in protobuf")

	deleted := decodeProtobuf[corev1.Pod](t, s.mustDo(http.StatusOK, "DELETE", pods+"/web", "", withHeader("Accept", clientGoAccept)))
	assert.Equal(t, "web", deleted.Name, "DELETE answered in protobuf")
}

// TestErrorsNegotiated: a Status is written in the serialization the
// client accepts, skipping the clauses that ask for a transformation, and
// as JSON when none is left.
func TestErrorsNegotiated(t *testing.T) {
	s := newTestServer(t)
	const missing = "/api/v1/namespaces/default/pods/missing"
	for _, accept := range []string{protobufAccept, clientGoAccept, "application/vnd.kubernetes.protobuf, */*"} {
		st := decodeProtobuf[metav1.Status](t, s.mustDo(http.StatusNotFound, "GET", missing, "", withHeader("Accept", accept)))
		assert.Equal(t, metav1.StatusReasonNotFound, st.Reason, "Accept: %s", accept)
		assert.Equal(t, metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, st.TypeMeta, "Accept: %s", accept)
	}
	for _, accept := range []string{kubectlTableAccept, metadataAccept, "application/json;as=Table;v=v1;g=meta.k8s.io"} {
		st := decodeJSON[metav1.Status](t, s.mustDo(http.StatusNotFound, "GET", missing, "", withHeader("Accept", accept)))
		assert.Equal(t, metav1.StatusReasonNotFound, st.Reason, "Accept: %s", accept)
	}
	r := s.mustDo(http.StatusNotFound, "GET", missing, "", withHeader("Accept", "application/yaml"))
	assert.Equal(t, "application/yaml", r.header.Get("Content-Type"), "a YAML client gets a YAML Status")
	assert.Contains(t, string(r.body), "reason: NotFound")

	// An unauthenticated request is refused in protobuf too.
	st := decodeProtobuf[metav1.Status](t, s.mustDo(http.StatusUnauthorized, "GET", missing, "", withToken(""), withHeader("Accept", protobufAccept)))
	assert.Equal(t, metav1.StatusReasonUnauthorized, st.Reason)
}

// TestNotAcceptable: a 406 is a JSON Status with kube-apiserver's
// message, and is decided before the verb acts.
func TestNotAcceptable(t *testing.T) {
	s := newTestServer(t)
	r := s.mustDo(http.StatusNotAcceptable, "POST", "/api/v1/namespaces/default/pods", podJSON("refused", nil),
		withHeader("Accept", "text/html"))
	st := r.status(t)
	assert.Equal(t, metav1.StatusReasonNotAcceptable, st.Reason)
	assert.Equal(t, "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf", st.Message)
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/refused", "")

	// A Table exists in JSON and YAML only.
	s.mustDo(http.StatusNotAcceptable, "GET", "/api/v1/namespaces/default/pods", "",
		withHeader("Accept", "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io"))
	// PartialObjectMetadata is one object's, PartialObjectMetadataList a
	// collection's.
	s.createPod("p", nil)
	st = s.mustDo(http.StatusNotAcceptable, "GET", "/api/v1/namespaces/default/pods", "",
		withHeader("Accept", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")).status(t)
	assert.Equal(t, "you requested PartialObjectMetadata, but the requested object is a list (*v1.PodList)", st.Message)
	st = s.mustDo(http.StatusNotAcceptable, "GET", "/api/v1/namespaces/default/pods/p", "",
		withHeader("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")).status(t)
	assert.Equal(t, "you requested PartialObjectMetadataList, but the requested object is not a list (*v1.Pod)", st.Message)
}

// TestPartialObjectMetadata: GET and LIST as client-go's metadata client
// asks for them, in protobuf and in JSON.
func TestPartialObjectMetadata(t *testing.T) {
	s := newTestServer(t)
	const pods = "/api/v1/namespaces/default/pods"
	pod := s.createPod("web", map[string]string{"app": "web"})
	s.createPod("db", nil)

	wantMeta := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
		ObjectMeta: pod.ObjectMeta,
	}
	got := decodeProtobuf[metav1.PartialObjectMetadata](t, s.mustDo(http.StatusOK, "GET", pods+"/web", "", withHeader("Accept", metadataAccept)))
	assert.Equal(t, wantMeta, got, "GET as PartialObjectMetadata in protobuf")
	gotJSON := decodeJSON[metav1.PartialObjectMetadata](t, s.mustDo(http.StatusOK, "GET", pods+"/web", "",
		withHeader("Accept", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")))
	assert.Equal(t, wantMeta, gotJSON, "GET as PartialObjectMetadata in JSON")

	list := decodeJSON[corev1.PodList](t, s.mustDo(http.StatusOK, "GET", pods, ""))
	metaList := decodeProtobuf[metav1.PartialObjectMetadataList](t, s.mustDo(http.StatusOK, "GET", pods, "", withHeader("Accept", metadataListAccept)))
	assert.Equal(t, metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: "meta.k8s.io/v1"}, metaList.TypeMeta)
	assert.Equal(t, list.ResourceVersion, metaList.ResourceVersion, "resourceVersion of the list")
	require.Len(t, metaList.Items, len(list.Items), "items of the metadata list")
	for i, item := range metaList.Items {
		assert.Equal(t, list.Items[i].ObjectMeta, item.ObjectMeta, "metadata of item %d", i)
	}
	jsonList := decodeJSON[metav1.PartialObjectMetadataList](t, s.mustDo(http.StatusOK, "GET", pods, "",
		withHeader("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")))
	require.Len(t, jsonList.Items, len(list.Items), "items of the JSON metadata list")
	for i, item := range jsonList.Items {
		// Items carry their kind in JSON; protobuf has no place for it.
		assert.Equal(t, metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"}, item.TypeMeta, "kind of item %d", i)
		assert.Equal(t, list.Items[i].ObjectMeta, item.ObjectMeta, "metadata of item %d", i)
	}

	// A page of the list carries its continue token.
	page := decodeProtobuf[metav1.PartialObjectMetadataList](t, s.mustDo(http.StatusOK, "GET", pods+"?limit=1", "", withHeader("Accept", metadataListAccept)))
	require.Len(t, page.Items, 1, "first page")
	assert.NotEmpty(t, page.Continue, "continue token of the first page")

	// An empty list has items, not null.
	r := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/kube-system/pods", "",
		withHeader("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"))
	assert.Contains(t, string(r.body), `"items":[]`, "empty metadata list %s", r.body)
}
