// Package plugins is the registry of minicp's in-tree scheduler plugins;
// each plugin lives in a subpackage named after it:
//
//	noderesources      NodeResourcesFit (filter, score), NodeResourcesBalancedAllocation (score)
//	nodename           NodeName (filter)
//	nodeaffinity       NodeAffinity (filter, score)
//	tainttoleration    TaintToleration (filter, score)
//	nodeunschedulable  NodeUnschedulable (filter)
//	nodeready          NodeReady (filter; minicp's)
//	names              their names, as the configuration spells them
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins.
package plugins
