// Package openapi checks minicp's discovery and OpenAPI documents
// against the real Kubernetes libraries: the schemas minicp generates
// for built-in kinds against the ones kube-apiserver publishes (client-go
// ships them in openapi/openapitest), the /openapi/v2 protobuf against
// gnostic's decoding of the same document in JSON, kubectl's OpenAPI
// model and validator (kube-openapi pkg/util/proto) on it, and client-go's
// discovery and OpenAPI v3 clients against a running server.
//
// It is its own module, so that the minicp library never depends on
// k8s.io modules (docs/architecture.md: compatibility tests live in their
// own module). It holds only tests; run them with
//
//	cd compat/openapi && go test ./...
package openapi
