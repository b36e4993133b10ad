package responsewriters

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
)

// TestWriteObject: the serialization follows Accept among those the
// value has, and falls back to JSON.
func TestWriteObject(t *testing.T) {
	status := apierrors.NewNotFound(runtime.GroupResource{Resource: "pods"}, "p").Status()
	list := &metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}}
	tests := []struct {
		name   string
		accept string
		obj    any
		want   string
	}{
		{name: "no Accept", obj: &status, want: MediaTypeJSON},
		{name: "protobuf Status", accept: "application/vnd.kubernetes.protobuf", obj: &status, want: MediaTypeProtobuf},
		{name: "protobuf first", accept: "application/vnd.kubernetes.protobuf,application/json", obj: list, want: MediaTypeProtobuf},
		{name: "yaml", accept: "application/yaml", obj: &status, want: MediaTypeYAML},
		{name: "transformations skipped", accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/yaml", obj: &status, want: MediaTypeYAML},
		{name: "nothing acceptable", accept: "text/html", obj: &status, want: MediaTypeJSON},
		{name: "plain value", accept: "application/vnd.kubernetes.protobuf", obj: map[string]any{"paths": nil}, want: MediaTypeJSON},
		{name: "custom resource", accept: "application/vnd.kubernetes.protobuf,application/yaml", obj: &unstructured.Unstructured{}, want: MediaTypeYAML},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			w := httptest.NewRecorder()
			WriteObject(w, r, http.StatusTeapot, tc.obj)
			assert.Equal(t, http.StatusTeapot, w.Code, "code")
			assert.Equal(t, tc.want, w.Header().Get("Content-Type"), "Content-Type for Accept %q", tc.accept)
			want, err := Encode(negotiation.SerializerInfo{MediaType: tc.want}, tc.obj)
			require.NoError(t, err, "Encode(%s)", tc.want)
			assert.Equal(t, want, w.Body.Bytes(), "body for Accept %q", tc.accept)
		})
	}
}

// TestWriteErrorProtobuf: a protobuf client reads the Status back, with
// its kind.
func TestWriteErrorProtobuf(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept", "application/vnd.kubernetes.protobuf")
	w := httptest.NewRecorder()
	WriteError(w, r, apierrors.NewTooManyRequests("slow down", 3))
	require.Equal(t, http.StatusTooManyRequests, w.Code)
	assert.Equal(t, "3", w.Header().Get("Retry-After"))
	var st metav1.Status
	require.NoError(t, runtime.DecodeProtobuf(w.Body.Bytes(), &st), "decode protobuf Status")
	assert.Equal(t, metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, st.TypeMeta)
	assert.Equal(t, metav1.StatusReasonTooManyRequests, st.Reason)
	assert.Equal(t, int32(http.StatusTooManyRequests), st.Code)
}

// TestSerializeObjectEncodeError: a value that cannot be encoded is a
// server fault, answered with a 500 Status in JSON.
func TestSerializeObjectEncodeError(t *testing.T) {
	w := httptest.NewRecorder()
	SerializeObject(w, negotiation.Protobuf, http.StatusOK, map[string]any{})
	require.Equal(t, http.StatusInternalServerError, w.Code)
	assert.Equal(t, MediaTypeJSON, w.Header().Get("Content-Type"))
	var st metav1.Status
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st), "decode %s", w.Body)
	assert.Equal(t, metav1.StatusReasonInternalError, st.Reason)
}
