// Package handlers serves the verbs of a resource over HTTP: it
// negotiates the answer's representation and serialization first (package
// negotiation), decodes the request (body by its Content-Type, query
// parameters), runs mutating admission, calls the registry (which
// validates, runs validating admission and stores), and encodes the
// answer: the object, its PartialObjectMetadata(List) or a Table, as
// JSON, YAML or Kubernetes protobuf. Watches are streamed as
// newline-delimited JSON {"type":...,"object":...} events or
// length-prefixed protobuf WatchEvent frames.
//
// In short, a write is: decode, admission and validation, storage,
// response.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers.
package handlers
