package v1

import (
	"testing"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
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
func TestProtobufGolden(t *testing.T) { runtimetest.ProtobufGolden(t, goldenKinds) }
