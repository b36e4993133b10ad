// Package nodename is the NodeName plugin: a pod that names a node in
// spec.nodeName fits only that node.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodename.
package nodename
