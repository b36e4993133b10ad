// Package tainttoleration is the TaintToleration plugin: it keeps a pod
// off nodes with a NoSchedule or NoExecute taint it does not tolerate
// (Filter) and prefers nodes with fewer PreferNoSchedule taints it does not
// tolerate (Score). It also holds the toleration matching that
// NodeUnschedulable and NodeReady share.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.
package tainttoleration
