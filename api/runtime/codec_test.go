package runtime_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

func TestDecodeUnknownFields(t *testing.T) {
	tests := []struct {
		name string
		obj  runtime.Object
		data string
		want []string
	}{
		{name: "known fields only", obj: &corev1.Pod{},
			data: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"any-key":"v"}},"spec":{"containers":[{"name":"c","image":"i"}]}}`},
		{name: "top level", obj: &corev1.Pod{},
			data: `{"kind":"Pod","colour":"red"}`, want: []string{"colour"}},
		{name: "in metadata", obj: &corev1.Pod{},
			data: `{"metadata":{"name":"p","nmae":"q"}}`, want: []string{"metadata.nmae"}},
		{name: "in a list of structs", obj: &corev1.Pod{},
			data: `{"spec":{"containers":[{"name":"a"},{"name":"b","colour":"red"}]}}`,
			want: []string{"spec.containers[1].colour"}},
		{name: "first list element", obj: &corev1.Pod{},
			data: `{"spec":{"containers":[{"name":"c","colour":"red"}]}}`,
			want: []string{"spec.containers[0].colour"}},
		{name: "below a list element", obj: &corev1.Pod{},
			data: `{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80,"colour":"red"}]}]}}`,
			want: []string{"spec.containers[0].ports[0].colour"}},
		{name: "several, sorted", obj: &corev1.Pod{},
			data: `{"zeta":1,"spec":{"beta":2},"alpha":3}`, want: []string{"alpha", "spec.beta", "zeta"}},
		{name: "an unknown object is reported once, not below", obj: &corev1.Pod{},
			data: `{"extra":{"a":{"b":1}}}`, want: []string{"extra"}},
		{name: "inline TypeMeta", obj: &Widget{},
			data: `{"apiVersion":"test/v1","kind":"Widget"}`},
		{name: "embedded by pointer", obj: &Widget{}, data: `{"spec":{"note":"n"}}`},
		{name: "embedded unexported", obj: &Widget{}, data: `{"spec":{"owner":"o"}}`},
		{name: "untagged field under its Go name", obj: &Widget{}, data: `{"spec":{"Untagged":"u"}}`},
		{name: "json:\"-\" field is unknown", obj: &Widget{},
			data: `{"spec":{"Ignored":"x","-":"y"}}`, want: []string{"spec.-", "spec.Ignored"}},
		{name: "map values of struct type", obj: &Widget{},
			data: `{"spec":{"byName":{"a":{"name":"a","colour":"red"}}}}`,
			want: []string{"spec.byName.a.colour"}},
		{name: "map of strings takes any key", obj: &Widget{}, data: `{"spec":{"selector":{"colour":"red"}}}`},
		{name: "list of lists", obj: &Widget{}, data: `{"spec":{"matrix":[["a"],["b"]]}}`},
		{name: "self-decoding type takes any value", obj: &Widget{},
			data: `{"spec":{"opaque":{"colour":"red","deep":{"x":[1]}}}}`},
		{name: "free-form field takes any value", obj: &Widget{},
			data: `{"spec":{"free":{"colour":"red"}}}`},
		{name: "metav1.Time", obj: &Widget{},
			data: `{"spec":{"started":"2024-05-06T07:08:09Z","stopped":null}}`},
		{name: "resource.Quantity", obj: &corev1.Pod{},
			data: `{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":1024}}}]}}`},
		{name: "YAML", obj: &corev1.Pod{},
			data: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    colour: red\n",
			want: []string{"spec.containers[0].colour"}},
		{name: "YAML after a document marker", obj: &corev1.Pod{},
			data: "---\nkind: Pod\ncolour: red\n", want: []string{"colour"}},
		{name: "surrounding whitespace", obj: &corev1.Pod{}, data: " \n\t{\"kind\":\"Pod\"}\n "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			unknown, err := runtime.Decode([]byte(tc.data), tc.obj)
			require.NoError(t, err, "Decode(%s)", tc.data)
			assert.Equal(t, tc.want, unknown, "Decode(%s)", tc.data)
		})
	}
}

func TestDecodeValues(t *testing.T) {
	data := `
apiVersion: v1
kind: Pod
metadata:
  name: web
  creationTimestamp: "2024-05-06T07:08:09Z"
spec:
  containers:
  - name: c
    image: nginx
    resources:
      limits:
        cpu: 500m
`
	var pod corev1.Pod
	unknown, err := runtime.Decode([]byte(data), &pod)
	require.NoError(t, err, "Decode(yaml pod)")
	assert.Empty(t, unknown, "Decode(yaml pod)")
	assert.Equal(t, "web", pod.Name)
	assert.Equal(t, "v1", pod.APIVersion)
	assert.True(t, pod.CreationTimestamp.Equal(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)), "creationTimestamp %v", pod.CreationTimestamp)
	require.Len(t, pod.Spec.Containers, 1)
	assert.Equal(t, int64(500), pod.Spec.Containers[0].Resources.Limits[corev1.ResourceCPU].MilliValue())
}

// Kubernetes decodes case-sensitively: a key that differs from a field's
// JSON name only in case is an unknown field, and it must not set the
// field, let alone override the correctly spelled key.
func TestDecodeIsCaseSensitive(t *testing.T) {
	tests := []struct {
		name        string
		data        string
		want        []string
		wantName    string
		wantNode    string
		wantImage   string
		wantCPUMill int64
	}{
		{name: "wrong case alone", data: `{"Metadata":{"name":"x"},"Spec":{"nodeName":"n"}}`,
			want: []string{"Metadata", "Spec"}},
		{name: "wrong case after the right one", data: `{"metadata":{"name":"good","NAME":"bad"}}`,
			want: []string{"metadata.NAME"}, wantName: "good"},
		{name: "wrong case before the right one", data: `{"metadata":{"Name":"bad","name":"good"}}`,
			want: []string{"metadata.Name"}, wantName: "good"},
		{name: "in a list element", data: `{"spec":{"containers":[{"name":"c","image":"good","Image":"bad"}]}}`,
			want: []string{"spec.containers[0].Image"}, wantImage: "good"},
		{name: "other fields survive the second decode",
			data: `{"metadata":{"name":"p"},"spec":{"nodeName":"n","containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"250m"}}}]},"colour":"red"}`,
			want: []string{"colour"}, wantName: "p", wantNode: "n", wantImage: "i", wantCPUMill: 250},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pod corev1.Pod
			unknown, err := runtime.Decode([]byte(tc.data), &pod)
			require.NoError(t, err, "Decode(%s)", tc.data)
			assert.Equal(t, tc.want, unknown, "Decode(%s)", tc.data)
			assert.Equal(t, tc.wantName, pod.Name, "Decode(%s): name", tc.data)
			assert.Equal(t, tc.wantNode, pod.Spec.NodeName, "Decode(%s): nodeName", tc.data)
			image := ""
			var cpu int64
			if len(pod.Spec.Containers) > 0 {
				image = pod.Spec.Containers[0].Image
				cpu = pod.Spec.Containers[0].Resources.Limits[corev1.ResourceCPU].MilliValue()
			}
			assert.Equal(t, tc.wantImage, image, "Decode(%s): image", tc.data)
			assert.Equal(t, tc.wantCPUMill, cpu, "Decode(%s): cpu", tc.data)
		})
	}
}

// Dropping unknown fields re-encodes the body; integers beyond float64's
// 53 bits must survive that exactly.
func TestDecodeKeepsLargeIntegersWithUnknownFields(t *testing.T) {
	data := `{"metadata":{"name":"p","generation":9007199254740993},"colour":"red"}`
	var pod corev1.Pod
	unknown, err := runtime.Decode([]byte(data), &pod)
	require.NoError(t, err, "Decode(%s)", data)
	assert.Equal(t, []string{"colour"}, unknown)
	assert.Equal(t, int64(9007199254740993), pod.Generation)
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{name: "empty", data: ""},
		{name: "whitespace", data: " \n\t "},
		{name: "truncated JSON", data: `{"kind":"Pod"`},
		{name: "trailing data", data: `{"kind":"Pod"} {}`},
		{name: "trailing data with unknown fields", data: `{"colour":"red"} {}`},
		{name: "wrong type", data: `{"metadata":{"name":5}}`},
		{name: "wrong type with unknown fields", data: `{"metadata":{"name":5},"colour":"red"}`},
		{name: "list for an object", data: `[{"kind":"Pod"}]`},
		{name: "YAML scalar", data: "just a string"},
		{name: "bad YAML", data: "kind: Pod\n  name: [x\n"},
		{name: "bad time", data: `{"metadata":{"creationTimestamp":"yesterday"}}`},
		{name: "bad quantity", data: `{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"lots"}}}]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pod corev1.Pod
			unknown, err := runtime.Decode([]byte(tc.data), &pod)
			assert.Error(t, err, "Decode(%q)", tc.data)
			assert.Nil(t, unknown, "Decode(%q)", tc.data)
		})
	}
}

func TestUnknownFieldsDoesNotModifyValue(t *testing.T) {
	var v any
	require.NoError(t, json.Unmarshal([]byte(`{"colour":"red","spec":{"Parts":[{"name":"a","x":1}]}}`), &v))
	before, err := json.Marshal(v)
	require.NoError(t, err)
	got := runtime.UnknownFields(v, reflect.TypeFor[Widget]())
	assert.Equal(t, []string{"colour", "spec.Parts"}, got)
	after, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, string(before), string(after), "UnknownFields must only read its value")
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	in := &corev1.Pod{}
	in.Name, in.Namespace = "p", "ns"
	in.Spec.Containers = []corev1.Container{{Name: "c", Image: "i"}}
	data, err := runtime.Encode(in)
	require.NoError(t, err, "Encode")
	var out corev1.Pod
	unknown, err := runtime.Decode(data, &out)
	require.NoError(t, err, "Decode(%s)", data)
	assert.Empty(t, unknown, "Decode(%s)", data)
	assert.Equal(t, in, &out)
}
