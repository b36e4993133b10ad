// Package filters holds the HTTP filters every API request passes before
// it reaches a handler, one per file, each a WithX(handler, ...) wrapper.
// The server lists them in request order:
//
//	panic recovery -> request info -> authentication -> audit ->
//	authorization -> limits -> (router: admission, validation, storage)
//
// which is the request path of Kubernetes' design ("API HTTP handler -> authn & authz
// -> Mutating admission -> ...") and Kubernetes' design ("kube-apiserver").
//
// Upstream: k8s.io/apiserver/pkg/endpoints/filters and pkg/server/filters.
package filters
