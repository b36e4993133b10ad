// Package request carries what the outer filters learn about a request to
// the inner ones: the RequestInfo parsed from the path (verb, group,
// version, resource, namespace, name, subresource) and the authenticated
// user, both stored in the request's context. The other way, inner
// layers such as admission hand outer ones what the response and the
// audit Event should carry: warnings for the client (AddWarning) and
// audit annotations (AddAuditAnnotation).
//
// Upstream: k8s.io/apiserver/pkg/endpoints/request.
package request
