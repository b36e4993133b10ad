package v1

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
)

// goldenKinds makes an empty object for each kind that has golden files in
// testdata/protobuf.
var goldenKinds = map[string]func() runtime.Object{
	"Job": func() runtime.Object { return &Job{} },
}

// TestProtobufGolden compares EncodeProtobuf with the bytes Kubernetes'
// own serializer writes for the same objects, and decodes those bytes. The
// files come from compat/protobuf (go test -run TestGolden -update there):
// <name>.json is the object, <name>.pb Kubernetes' bytes for it.
// Job-kubectl-create.pb is the body `kubectl create job`
// sends.
func TestProtobufGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "protobuf", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no golden files: run go test -run TestGolden -update in compat/protobuf")
	for _, jsonPath := range files {
		name := strings.TrimSuffix(filepath.Base(jsonPath), ".json")
		t.Run(name, func(t *testing.T) {
			kind, _, _ := strings.Cut(name, "-")
			newObj, ok := goldenKinds[kind]
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
