package v1

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

// goldenKinds makes an empty object for each kind that has golden files in
// testdata/protobuf.
var goldenKinds = map[string]func() runtime.Object{
	"Namespace":             func() runtime.Object { return &Namespace{} },
	"NamespaceList":         func() runtime.Object { return &NamespaceList{} },
	"Pod":                   func() runtime.Object { return &Pod{} },
	"PodList":               func() runtime.Object { return &PodList{} },
	"Node":                  func() runtime.Object { return &Node{} },
	"NodeList":              func() runtime.Object { return &NodeList{} },
	"Binding":               func() runtime.Object { return &Binding{} },
	"Event":                 func() runtime.Object { return &Event{} },
	"EventList":             func() runtime.Object { return &EventList{} },
	"Status":                func() runtime.Object { return &metav1.Status{} },
	"DeleteOptions":         func() runtime.Object { return &metav1.DeleteOptions{} },
	"PartialObjectMetadata": func() runtime.Object { return &metav1.PartialObjectMetadata{} },
	"APIResourceList":       func() runtime.Object { return &metav1.APIResourceList{} },
	"APIGroupList":          func() runtime.Object { return &metav1.APIGroupList{} },
	"APIVersions":           func() runtime.Object { return &metav1.APIVersions{} },
	"Service":               func() runtime.Object { return &Service{} },
	"Endpoints":             func() runtime.Object { return &Endpoints{} },
	"ConfigMap":             func() runtime.Object { return &ConfigMap{} },
	"Secret":                func() runtime.Object { return &Secret{} },
	"ServiceAccount":        func() runtime.Object { return &ServiceAccount{} },
}

// TestProtobufGolden compares EncodeProtobuf with the bytes Kubernetes'
// own serializer writes for the same objects, and decodes those bytes. The
// files come from compat/protobuf (go test -run TestGolden -update there),
// which builds each object with both minicp and k8s.io/api: <name>.json is
// the object, <name>.pb Kubernetes' bytes for it. For Pods, compat drops
// PodStatus.resize and observedGeneration from them first: upstream always
// writes those zero-valued fields, and minicp's PodStatus does not have
// them.
func TestProtobufGolden(t *testing.T) { runtimetest.ProtobufGolden(t, goldenKinds) }

// TestProtobufRoundTripFixtures sends the JSON and YAML fixtures, captured
// from real clusters and kubectl, through protobuf and back. Protobuf
// cannot tell an empty list or map from a missing one, so the objects are
// compared by their JSON, where omitempty erases the same difference; the
// re-encoding must also give the same bytes.
func TestProtobufRoundTripFixtures(t *testing.T) {
	tests := []struct {
		file string
		obj  func() runtime.Object
	}{
		{file: "pod-live.json", obj: func() runtime.Object { return &Pod{} }},
		{file: "kubectl-run-pod.json", obj: func() runtime.Object { return &Pod{} }},
		{file: "pod-manifest.yaml", obj: func() runtime.Object { return &Pod{} }},
		{file: "node-kubelet.json", obj: func() runtime.Object { return &Node{} }},
		{file: "event.json", obj: func() runtime.Object { return &Event{} }},
		{file: "namespace.yaml", obj: func() runtime.Object { return &Namespace{} }},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			obj := tc.obj()
			runtimetest.DecodeFile(t, tc.file, obj)
			data, err := runtime.EncodeProtobuf(obj)
			require.NoError(t, err, "EncodeProtobuf(%s)", tc.file)
			decoded := tc.obj()
			require.NoError(t, runtime.DecodeProtobuf(data, decoded), "DecodeProtobuf(%s)", tc.file)

			wantJSON, err := json.Marshal(obj)
			require.NoError(t, err)
			gotJSON, err := json.Marshal(decoded)
			require.NoError(t, err)
			assert.JSONEq(t, string(wantJSON), string(gotJSON), "protobuf round trip of %s", tc.file)

			again, err := runtime.EncodeProtobuf(decoded)
			require.NoError(t, err)
			assert.Equal(t, data, again, "re-encoding %s", tc.file)
		})
	}
}

// TestDecodeProtobufKubectlCreateNamespace decodes the body kubectl create
// namespace x sends, byte for byte as client-go writes it (the same bytes
// as testdata/protobuf/Namespace-kubectl-create.pb).
func TestDecodeProtobufKubectlCreateNamespace(t *testing.T) {
	body := []byte("k8s\x00" +
		"\x0a\x0f\x0a\x02v1\x12\x09Namespace" + // typeMeta
		"\x12\x19" + // raw: the Namespace
		"\x0a\x11" + "\x0a\x01x\x12\x00\x1a\x00\x22\x00\x2a\x00\x32\x00\x38\x00\x42\x00" + // metadata
		"\x12\x00" + // spec
		"\x1a\x02\x0a\x00" + // status
		"\x1a\x00\x22\x00") // contentEncoding, contentType
	var ns Namespace
	require.NoError(t, runtime.DecodeProtobuf(body, &ns))
	assert.Equal(t, Namespace{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{Name: "x"},
	}, ns)

	var pod Pod
	assert.ErrorContains(t, runtime.DecodeProtobuf(body, &pod), `body is a "Namespace", not a "Pod"`)
}
