// Package noderesources holds the plugins that look at cpu, memory and the
// other resources pods request:
//
//   - NodeResourcesFit (Fit): Filter checks each request against what is
//     left of the node's allocatable, and the pod count against its
//     "pods"; Score applies the LeastAllocated strategy, which spreads pods
//     onto the nodes with the most left over;
//   - NodeResourcesBalancedAllocation (BalancedAllocation): Score favors
//     nodes whose cpu and memory would be used in the same proportion.
//
// Fitting counts requests exactly. Scoring counts 100m cpu and 200Mi memory
// for containers that request none (framework.DefaultMilliCPURequest and
// DefaultMemoryRequest), so pods that request nothing still spread out.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.
// Upstream's old NodeResourcesLeastAllocated plugin became Fit's
// LeastAllocated scoring strategy in v1beta2 (v1.22); minicp follows the
// v1 configuration, where it is NodeResourcesFit's score.
package noderesources
