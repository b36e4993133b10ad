// Package v1alpha1 holds the kubelet's Summary: the resource usage of
// its node and of each pod and container on it, which the kubelet serves
// at GET /stats/summary and the API server's metrics.k8s.io resources
// read. It is the kubelet's own API, not the Kubernetes REST API: no
// kind, no apiVersion, not in any scheme.
//
// Only the CPU and memory statistics metrics.k8s.io needs are here; the
// JSON names are upstream's, so a Summary minicp writes is one
// upstream's readers understand.
//
// Upstream: k8s.io/kubelet/pkg/apis/stats/v1alpha1.
package v1alpha1
