// Package v1 holds the coordination.k8s.io/v1 kinds: the Lease, which
// kubelets renew as their heartbeat (in kube-node-lease) and which
// leader-elected components hold to decide who acts.
//
// Import it as coordinationv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/coordination/v1.
//
// Upstream: k8s.io/api/coordination/v1.
package v1
