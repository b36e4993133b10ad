// Package v1 holds the object metadata every Kubernetes object carries
// (TypeMeta, ObjectMeta, ListMeta), the Status object every error is
// reported as, and the special-purpose kinds of the meta.k8s.io group:
// discovery documents, watch events and tables.
//
// Import it as metav1. Field names and JSON spellings match
// k8s.io/apimachinery/pkg/apis/meta/v1 exactly, so manifests written for a
// real cluster decode unchanged. Kinds come in three sorts: objects,
// lists, and special-purpose kinds such as Status.
package v1
