// Package runtimetest holds what the API groups' codec tests share:
// decoding a testdata file strictly, comparing minicp's JSON with the
// document upstream wrote, and checking protobuf encoding against the
// golden files compat/protobuf writes with Kubernetes' own serializer.
package runtimetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/runtime"
)

// DecodeFile decodes testdata/name (JSON or YAML) into obj, failing t on
// an error or an unknown field, and returns the file's bytes.
func DecodeFile(t testing.TB, name string, obj runtime.Object) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err, "read %s", name)
	unknown, err := runtime.Decode(data, obj)
	require.NoError(t, err, "Decode(%s)", name)
	assert.Empty(t, unknown, "unknown fields in %s", name)
	return data
}

// ToGeneric is data (JSON or YAML) as generic JSON values, for comparing
// two documents regardless of key order and layout.
func ToGeneric(t testing.TB, data []byte) any {
	t.Helper()
	jsonData, err := yaml.YAMLToJSON(data)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(jsonData, &out))
	return out
}

// UpstreamOnly removes from v, a generic JSON document, what upstream
// writes and minicp leaves out: null (zero timestamps) anywhere, and the
// empty objects Go's omitempty cannot drop, under the keys of
// emptyObjectKeys where upstream writes them. Everything else must round
// trip exactly. It changes v in place and returns it.
func UpstreamOnly(v any, emptyObjectKeys ...string) any {
	switch v := v.(type) {
	case map[string]any:
		for k, elem := range v {
			if elem == nil {
				delete(v, k)
				continue
			}
			v[k] = UpstreamOnly(elem, emptyObjectKeys...)
			if m, ok := v[k].(map[string]any); ok && len(m) == 0 && slices.Contains(emptyObjectKeys, k) {
				delete(v, k)
			}
		}
	case []any:
		for i := range v {
			v[i] = UpstreamOnly(v[i], emptyObjectKeys...)
		}
	}
	return v
}

// ProtobufGolden compares runtime.EncodeProtobuf with the bytes
// Kubernetes' own serializer wrote for the same objects, and decodes
// those bytes, for every golden file in testdata/protobuf: <name>.json is
// the object, <name>.pb Kubernetes' bytes for it, and <name> starts with
// the kind, which kinds makes an empty object of. The files come from
// compat/protobuf (go test -run TestGolden -update there).
func ProtobufGolden(t *testing.T, kinds map[string]func() runtime.Object) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "protobuf", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no golden files: run go test -run TestGolden -update in compat/protobuf")
	for _, jsonPath := range files {
		name := strings.TrimSuffix(filepath.Base(jsonPath), ".json")
		t.Run(name, func(t *testing.T) {
			kind, _, _ := strings.Cut(name, "-")
			newObj, ok := kinds[kind]
			require.True(t, ok, "golden file %s is of unknown kind %q", name, kind)
			jsonData, err := os.ReadFile(jsonPath)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join("testdata", "protobuf", name+".pb"))
			require.NoError(t, err)
			obj := newObj()
			require.NoError(t, json.Unmarshal(jsonData, obj), "json.Unmarshal(%s)", name)

			got, err := runtime.EncodeProtobuf(obj)
			require.NoError(t, err, "EncodeProtobuf(%s)", name)
			assert.Equal(t, want, got, "EncodeProtobuf(%s) differs from Kubernetes' bytes", name)

			decoded := newObj()
			require.NoError(t, runtime.DecodeProtobuf(want, decoded), "DecodeProtobuf(%s.pb)", name)
			assert.Equal(t, obj, decoded, "DecodeProtobuf(%s.pb)", name)
		})
	}
}
