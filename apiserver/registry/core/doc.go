// Package core holds the registry strategies of the core/v1 resources the
// API server serves: pods (with status and binding), nodes (with status),
// namespaces (with status and finalize) and events, and their tables.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core.
package core
