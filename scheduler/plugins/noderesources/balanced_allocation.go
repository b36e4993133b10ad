package noderesources

import (
	"context"
	"math"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// BalancedAllocationName is the plugin's name in the configuration.
const BalancedAllocationName = names.NodeResourcesBalancedAllocation

const balancedAllocationPreScoreStateKey framework.StateKey = "PreScore" + BalancedAllocationName

// BalancedAllocation is a Score plugin that favors nodes where, with the
// pod, cpu and memory would be used in the same proportion, so neither
// runs out while the other sits idle.
//
// Unlike NodeResourcesFit's score it uses the pods' actual requests, not
// the scoring defaults for containers that request nothing
// (kubernetes#102925: the defaults could push "requested" past
// allocatable and score a full node as balanced), and it leaves pods that
// request nothing at all (best-effort pods) unscored: they would otherwise
// all pile onto the same, perfectly balanced node (kubernetes#129138).
//
// This is the formula of upstream v1.22 to v1.35; v1.36
// (kubernetes#135573) scores the change in balance the pod causes instead.
type BalancedAllocation struct {
	resources []resourceSpec
}

var (
	_ framework.PreScorePlugin = (*BalancedAllocation)(nil)
	_ framework.ScorePlugin    = (*BalancedAllocation)(nil)
)

// NewBalancedAllocation returns the plugin, looking at cpu and memory.
func NewBalancedAllocation() (framework.Plugin, error) {
	return &BalancedAllocation{resources: defaultResources}, nil
}

// Name returns BalancedAllocationName.
func (ba *BalancedAllocation) Name() string { return BalancedAllocationName }

// balancedPreScoreState is the pod's requests, in the order of resources;
// never modified after PreScore.
type balancedPreScoreState struct{ podRequests []int64 }

// Clone returns s.
func (s *balancedPreScoreState) Clone() framework.StateData { return s }

// PreScore computes the pod's requests once, and returns Skip for a pod
// that requests none of the resources.
func (ba *BalancedAllocation) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	req := podRequestList(pod, ba.resources, false)
	if isBestEffort(req) {
		return framework.NewStatus(framework.Skip)
	}
	state.Write(balancedAllocationPreScoreStateKey, &balancedPreScoreState{podRequests: req})
	return nil
}

func isBestEffort(podRequests []int64) bool {
	for _, r := range podRequests {
		if r != 0 {
			return false
		}
	}
	return true
}

// Score is (1 - std) * 100, where std is the standard deviation of the
// fractions requested/allocatable of the resources, each capped at 1,
// with the pod on the node. See balancedResourceScore.
func (ba *BalancedAllocation) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	var podRequests []int64
	if d, err := state.Read(balancedAllocationPreScoreStateKey); err == nil {
		podRequests = d.(*balancedPreScoreState).podRequests
	} else {
		// PreScore did not run (a caller scoring one node by hand).
		podRequests = podRequestList(pod, ba.resources, false)
		if isBestEffort(podRequests) {
			return 0, nil
		}
	}
	var reqBuf, allocBuf [maxResources]int64
	requested, allocatable := reqBuf[:len(ba.resources)], allocBuf[:len(ba.resources)]
	for i, r := range ba.resources {
		allocatable[i], requested[i] = allocatableRequested(nodeInfo, r.name, podRequests[i], true)
	}
	return balancedResourceScore(requested, allocatable), nil
}

// ScoreExtensions returns nil: scores are already 0-100.
func (ba *BalancedAllocation) ScoreExtensions() framework.ScoreExtensions { return nil }

// balancedResourceScore is (1 - std) * 100, truncated, over the resources
// the node offers. With two resources std is |f1 - f2| / 2, so a node that
// would be 50% used on cpu and 50% on memory scores 100, and one at 100%
// cpu and 0% memory scores 50. With three or more it is the square root
// of the mean squared deviation from the mean fraction; with one, 0.
//
// Upstream: noderesources.balancedResourceScorer, "partly inspired by
// Wei Huang et al. An Energy Efficient Virtual Machine Placement Algorithm
// with Balanced Resource Utilization".
func balancedResourceScore(requested, allocatable []int64) int64 {
	var fracBuf [maxResources]float64
	fractions := fracBuf[:0]
	var total float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := min(float64(requested[i])/float64(allocatable[i]), 1)
		total += f
		fractions = append(fractions, f)
	}
	var std float64
	switch {
	case len(fractions) == 2:
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	case len(fractions) > 2:
		mean := total / float64(len(fractions))
		var sum float64
		for _, f := range fractions {
			sum += (f - mean) * (f - mean)
		}
		std = math.Sqrt(sum / float64(len(fractions)))
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}
