// Package v1 holds the scheduling.k8s.io/v1 kinds: the PriorityClass,
// which names a pod priority. A pod that names a class
// (spec.priorityClassName) gets its value as spec.priority from the
// Priority admission plugin; the scheduler takes higher priorities first.
//
// Import it as schedulingv1. Field names, JSON spellings and protobuf
// field numbers match upstream.
//
// Upstream: k8s.io/api/scheduling/v1.
package v1
