// Package policy holds the registry strategies of the
// poddisruptionbudgets resource: the main resource (the spec is the
// client's and may change) and its status subresource (written by the
// disruption controller and by the pods/eviction subresource), and the
// table `kubectl get pdb` prints.
//
// Upstream: k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget.
package policy
