// Package filters holds the HTTP filters every API request passes before
// it reaches a handler, one per file, each a WithX(handler, ...) wrapper.
// The server lists them in request order:
//
//	panic recovery -> request info -> metrics -> authentication ->
//	audit -> impersonation -> authorization -> limits -> (router: admission,
//	validation, storage)
//
// which is the front half of the request path: who is asking, what they
// ask, whether they may, and when it runs (limits dispatches through API
// Priority and Fairness, priority_and_fairness.go); the router and
// handlers do the rest.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/filters and pkg/server/filters.
package filters
