// Package protobuf checks minicp's protobuf codec (api/runtime
// EncodeProtobuf and DecodeProtobuf) against the real Kubernetes types: for
// each object, the bytes minicp writes must be the bytes k8s.io/api's
// generated Marshal and apimachinery's protobuf serializer write, and each
// side must read what the other wrote. It also checks that every
// `protobuf` struct tag in minicp's api/meta/v1, api/core/v1, api/apps/v1,
// api/batch/v1, api/autoscaling/v1 and api/coordination/v1 is the
// upstream one.
//
// It is its own module, so that the minicp library never depends on
// k8s.io modules (docs/architecture.md: compatibility tests using client-go
// live in their own module). It holds only tests; run them with
//
//	cd compat/protobuf && go test ./...
//
// `go test -run TestGolden -update` rewrites the golden files in
// api/{core,apps,batch,autoscaling}/v1/testdata/protobuf, which the main
// module's tests compare EncodeProtobuf against without needing k8s.io.
package protobuf
