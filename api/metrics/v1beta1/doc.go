// Package v1beta1 holds the metrics.k8s.io/v1beta1 kinds, the resource
// metrics API that `kubectl top` and the HorizontalPodAutoscaler read:
// NodeMetrics, a node's CPU and memory usage, and PodMetrics, the usage
// of each container of a pod, each measured over a window ending at a
// timestamp.
//
// Upstream serves them from metrics-server, an aggregated API server
// that scrapes every kubelet; minicp's API server serves them itself,
// read-only (get and list), and asks the kubelets on every request.
//
// Import it as metricsv1beta1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/metrics/pkg/apis/metrics/v1beta1.
//
// Upstream: k8s.io/metrics/pkg/apis/metrics/v1beta1.
package v1beta1
