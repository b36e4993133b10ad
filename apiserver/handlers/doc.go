// Package handlers serves the verbs of a resource over HTTP: it decodes
// the request (body, query parameters, content type), runs mutating
// admission, calls the registry (which validates, runs validating admission
// and stores), and encodes the answer as JSON, YAML or a Table. Watches are
// streamed as newline-delimited {"type":...,"object":...} events.
//
// Seed 002 ("kube-apiserver", steps 1-6): decode, basic validation,
// admission, storage, response.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers.
package handlers
