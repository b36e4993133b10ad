// Package v1 holds the authentication.k8s.io/v1 kinds minicp serves:
// SelfSubjectReview, which answers "who am I" with the user the
// authentication hop of the request path established (`kubectl auth
// whoami`), and the UserInfo it reports.
//
// Import it as authenticationv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/authentication/v1.
//
// Upstream: k8s.io/api/authentication/v1.
package v1
