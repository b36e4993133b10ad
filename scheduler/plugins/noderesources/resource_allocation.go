package noderesources

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
)

// resourceSpec is a resource a scoring strategy looks at, and its weight.
type resourceSpec struct {
	name   corev1.ResourceName
	weight int64
}

// defaultResources are upstream's defaults for both scoring strategies
// (NodeResourcesFitArgs.ScoringStrategy.Resources and
// NodeResourcesBalancedAllocationArgs.Resources): cpu and memory, weight 1
// each. minicp has no plugin arguments to change them yet.
var defaultResources = []resourceSpec{
	{name: corev1.ResourceCPU, weight: 1},
	{name: corev1.ResourceMemory, weight: 1},
}

// maxResources bounds the resources a strategy may look at, so the
// per-node arrays of Score stay on the stack.
const maxResources = 8

// podRequestList is the pod's request of each resource, in the order of
// resources. nonZero counts the scoring defaults for containers that
// request no cpu or memory (see framework.PodRequestsOptions).
//
// Upstream: resourceAllocationScorer.calculatePodResourceRequestList.
func podRequestList(pod *corev1.Pod, resources []resourceSpec, nonZero bool) []int64 {
	req := framework.PodRequests(pod, framework.PodRequestsOptions{NonZero: nonZero})
	out := make([]int64, len(resources))
	for i, r := range resources {
		out[i] = amountOf(req, r.name)
	}
	return out
}

// amountOf returns r's amount of name, in the scheduler's units.
func amountOf(r framework.Resource, name corev1.ResourceName) int64 {
	switch name {
	case corev1.ResourceCPU:
		return r.MilliCPU
	case corev1.ResourceMemory:
		return r.Memory
	case corev1.ResourceEphemeralStorage:
		return r.EphemeralStorage
	}
	return r.ScalarResources[name]
}

// allocatableRequested returns how much of name the node offers and how
// much would be requested of it with the pod there. For cpu and memory
// the requested amount is the NonZeroRequested sum, unless useRequested
// (BalancedAllocation) asks for the plain Requested one. An extended
// resource the pod does not request returns (0, 0), which the strategies
// skip, so that nodes are not scored on resources the pod does not care
// about.
//
// Upstream: resourceAllocationScorer.calculateResourceAllocatableRequest.
func allocatableRequested(nodeInfo *framework.NodeInfo, name corev1.ResourceName, podRequest int64, useRequested bool) (alloc, requested int64) {
	onNode := nodeInfo.NonZeroRequested
	if useRequested {
		onNode = nodeInfo.Requested
	}
	switch name {
	case corev1.ResourceCPU:
		return nodeInfo.Allocatable.MilliCPU, onNode.MilliCPU + podRequest
	case corev1.ResourceMemory:
		return nodeInfo.Allocatable.Memory, onNode.Memory + podRequest
	case corev1.ResourceEphemeralStorage:
		return nodeInfo.Allocatable.EphemeralStorage, nodeInfo.Requested.EphemeralStorage + podRequest
	}
	if podRequest == 0 {
		return 0, 0
	}
	return nodeInfo.Allocatable.ScalarResources[name], nodeInfo.Requested.ScalarResources[name] + podRequest
}
