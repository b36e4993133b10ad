// Package apierrors builds and classifies the errors every client sees: a
// StatusError wraps a metav1.Status with the HTTP code and reason Kubernetes
// uses for that failure. The API server builds them only through the
// constructors here, and the client decodes Status bodies back into the same
// type, so one predicate (IsNotFound, IsConflict, ...) works on both sides.
//
// Upstream: k8s.io/apimachinery/pkg/api/errors.
package apierrors
