// Package nodeunschedulable is the NodeUnschedulable plugin: it keeps pods
// off cordoned nodes (spec.unschedulable, set by `kubectl cordon`), except
// pods that tolerate the node.kubernetes.io/unschedulable:NoSchedule taint,
// as DaemonSet pods do.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeunschedulable.
package nodeunschedulable
