// Package v1 holds the authorization.k8s.io/v1 kinds: the access reviews
// that ask the authorization hop of the request path a question without
// making the request. SubjectAccessReview asks about any user,
// LocalSubjectAccessReview about any user in one namespace,
// SelfSubjectAccessReview about the caller (`kubectl auth can-i`), and
// SelfSubjectRulesReview lists what the caller may do in a namespace
// (`kubectl auth can-i --list`). None is stored: a create returns the
// answer in status.
//
// Import it as authorizationv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/authorization/v1.
//
// Upstream: k8s.io/api/authorization/v1.
package v1
