package noderesources

import "github.com/minicp/minicp/scheduler/framework"

// leastAllocatedScore favors nodes with more left over: each resource
// scores (allocatable - requested) * 100 / allocatable, and the node gets
// their weighted average (integer division at both steps, as upstream).
// Resources the node does not offer are left out of the average.
//
//	(cpu((alloc-req)*100/alloc)*cpuWeight + memory(...)*memoryWeight) / (cpuWeight + memoryWeight)
//
// Upstream: noderesources.leastResourceScorer (the LeastAllocated
// scoring strategy of NodeResourcesFit).
func leastAllocatedScore(requested, allocatable []int64, resources []resourceSpec) int64 {
	var score, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		score += leastRequestedScore(requested[i], allocatable[i]) * resources[i].weight
		weightSum += resources[i].weight
	}
	if weightSum == 0 {
		return 0
	}
	return score / weightSum
}

// leastRequestedScore is the unused share of capacity on a 0-100 scale;
// 0 when the node is (over)full.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}
