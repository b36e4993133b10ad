// Package autoscaling holds the registry strategy of the
// horizontalpodautoscalers resource, served at autoscaling/v2 (the
// storage version) and autoscaling/v1, with its status subresource, its
// table, and the storage.Converter that serves the v2 objects at v1.
//
// Upstream: k8s.io/kubernetes/pkg/registry/autoscaling.
package autoscaling
