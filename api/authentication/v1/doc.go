// Package v1 holds the authentication.k8s.io/v1 kinds minicp serves:
// SelfSubjectReview, which answers "who am I" with the user the
// authentication hop of the request path established (`kubectl auth
// whoami`); TokenRequest, the body of serviceaccounts/token, which issues
// a ServiceAccount's signed token; TokenReview, which tells a webhook or
// proxy whose a token is; and the UserInfo they report.
//
// Import it as authenticationv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/authentication/v1.
//
// Upstream: k8s.io/api/authentication/v1.
package v1
