// Package apps holds the registry strategies of the apps/v1 resources:
// deployments, replicasets and statefulsets, with their status and scale
// subresources, and their tables.
//
// Upstream: k8s.io/kubernetes/pkg/registry/apps.
package apps
