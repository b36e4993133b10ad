// Package core holds the registry strategies of the core/v1 resources the
// API server serves: pods (with status and binding), nodes (with status),
// namespaces (with status and finalize), events, services (with status,
// and the Allocator of their cluster IPs and node ports), endpoints,
// configmaps, secrets and serviceaccounts, and their tables.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core.
package core
