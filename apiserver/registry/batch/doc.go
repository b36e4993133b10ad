// Package batch holds the registry strategy of the batch/v1 jobs resource,
// with its status subresource, and its table.
//
// Upstream: k8s.io/kubernetes/pkg/registry/batch.
package batch
