package runtime_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Decode skips the generic parse when a scan of the raw bytes proves every
// key known; it must still report exactly what UnknownFields finds in the
// generic parse, for documents built to fool such a scan.
func TestDecodeReportsWhatUnknownFieldsFinds(t *testing.T) {
	tests := []struct {
		name string
		obj  runtime.Object
		data string
	}{
		{name: "known", obj: &corev1.Pod{}, data: benchPod},
		{name: "whitespace everywhere", obj: &corev1.Pod{},
			data: " { \"metadata\" : { \"name\" : \"p\" , \"labels\" : { } } ,\n\"spec\":{ \"containers\" : [ ] } } "},
		{name: "escaped string values", obj: &corev1.Pod{},
			data: `{"metadata":{"name":"p\"}","annotations":{"a":"{\"colour\":\"red\"}\\"}}}`},
		{name: "escaped key spelling a known field", obj: &corev1.Pod{}, data: `{"metadata":{"n\u0061me":"p"}}`},
		{name: "escaped key spelling an unknown field", obj: &corev1.Pod{}, data: `{"metadata":{"n\u0061mex":"p"}}`},
		{name: "case mismatch", obj: &corev1.Pod{}, data: `{"metadata":{"Name":"p"}}`},
		{name: "case mismatch deep", obj: &corev1.Pod{},
			data: `{"spec":{"containers":[{"name":"c"},{"name":"d","ports":[{"ContainerPort":1}]}]}}`},
		{name: "duplicate key, unknown only in the first", obj: &corev1.Pod{},
			data: `{"spec":{"colour":1},"spec":{}}`},
		{name: "duplicate key, unknown only in the last", obj: &corev1.Pod{},
			data: `{"spec":{},"spec":{"colour":1}}`},
		{name: "unknown below a map value", obj: &Widget{},
			data: `{"spec":{"byName":{"a":{"name":"a"},"b":{"name":"b","colour":"red"}}}}`},
		{name: "anything below a free-form value", obj: &Widget{},
			data: `{"spec":{"free":{"Colour":[{"x":{}}]},"opaque":{"y":1}}}`},
		{name: "object where a string goes", obj: &corev1.Pod{}, data: `{"metadata":{"name":{"colour":1}}}`},
		{name: "list where an object goes", obj: &corev1.Pod{}, data: `{"spec":[{"colour":1}]}`},
		{name: "numbers and literals", obj: &corev1.Pod{},
			data: `{"metadata":{"generation":-1.5e3,"deletionTimestamp":null},"spec":{"hostNetwork":true}}`},
		{name: "YAML", obj: &corev1.Pod{}, data: "metadata:\n  name: p\n  Name: q\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var generic any
			require.NoError(t, json.Unmarshal(jsonOf(t, tc.data), &generic))
			want := runtime.UnknownFields(generic, reflect.TypeOf(tc.obj))
			unknown, err := runtime.Decode([]byte(tc.data), tc.obj)
			if err != nil {
				// A body of the wrong shape fails either way; only
				// the report is compared.
				assert.Nil(t, unknown, "Decode(%s)", tc.data)
				return
			}
			assert.Equal(t, want, unknown, "Decode(%s)", tc.data)
		})
	}
}

func jsonOf(t *testing.T, data string) []byte {
	out, err := yaml.YAMLToJSON([]byte(data))
	require.NoError(t, err)
	return out
}
