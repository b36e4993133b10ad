// Package negotiation is content negotiation for the API server, in one
// place for every verb: which serialization (JSON, YAML, Kubernetes
// protobuf) a response is written in and which representation it carries
// (the object itself, a Table, PartialObjectMetadata or
// PartialObjectMetadataList), read from the Accept header; which
// serialization a watch streams in; and which decoder reads a request body,
// read from Content-Type.
//
// It sits at the start of every handler, before the registry is called, so
// that a request whose answer the client could not read is refused (406)
// before it changes anything, as kube-apiserver refuses it. The handlers
// say what they can produce through EndpointRestrictions; errors, which
// are never transformed, use DefaultEndpointRestrictions.
//
// It covers both ends of a handler: decoding the request and encoding the
// answer.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation.
package negotiation
