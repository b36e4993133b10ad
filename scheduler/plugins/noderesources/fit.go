package noderesources

import (
	"context"
	"fmt"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// FitName is the plugin's name in the configuration.
const FitName = names.NodeResourcesFit

// The CycleState keys of the pod's requests.
const (
	preFilterStateKey framework.StateKey = "PreFilter" + FitName
	preScoreStateKey  framework.StateKey = "PreScore" + FitName
)

// Fit is the NodeResourcesFit plugin. As a Filter it checks that the node
// has room for the pod's requests; as a Score plugin it applies the
// LeastAllocated strategy, upstream's default, which spreads pods onto the
// emptiest nodes.
type Fit struct {
	// resources are what Score looks at, with their weights.
	resources []resourceSpec
}

var (
	_ framework.PreFilterPlugin = (*Fit)(nil)
	_ framework.FilterPlugin    = (*Fit)(nil)
	_ framework.PreScorePlugin  = (*Fit)(nil)
	_ framework.ScorePlugin     = (*Fit)(nil)
)

// NewFit returns the plugin, scoring cpu and memory with weight 1 each.
func NewFit() (framework.Plugin, error) { return &Fit{resources: defaultResources}, nil }

// Name returns FitName.
func (f *Fit) Name() string { return FitName }

// preFilterState is the pod's requests; never modified after PreFilter.
type preFilterState struct{ framework.Resource }

// Clone returns s.
func (s *preFilterState) Clone() framework.StateData { return s }

// PreFilter computes the pod's requests once for all nodes (see
// framework.PodRequests: containers add up, init containers take the
// max, plus overhead).
func (f *Fit) PreFilter(_ context.Context, state *framework.CycleState, pod *corev1.Pod) *framework.Status {
	state.Write(preFilterStateKey, &preFilterState{framework.PodRequests(pod, framework.PodRequestsOptions{})})
	return nil
}

// Filter rejects a node that has no room for the pod, with one reason per
// resource that is short ("Too many pods", "Insufficient cpu",
// "Insufficient memory", ...). The rejection is Unschedulable, which
// preemption might resolve, unless the pod asks for more of a resource
// than the node has in all: then it is UnschedulableAndUnresolvable.
func (f *Fit) Filter(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	var req framework.Resource
	if d, err := state.Read(preFilterStateKey); err == nil {
		req = d.(*preFilterState).Resource
	} else {
		// PreFilter did not run (a caller filtering one node by hand).
		req = framework.PodRequests(pod, framework.PodRequestsOptions{})
	}
	insufficient := fitsRequest(req, nodeInfo)
	if len(insufficient) == 0 {
		return nil
	}
	code := framework.Unschedulable
	reasons := make([]string, len(insufficient))
	for i, r := range insufficient {
		reasons[i] = r.Reason
		if r.Unresolvable {
			code = framework.UnschedulableAndUnresolvable
		}
	}
	return framework.NewStatus(code, reasons...)
}

// InsufficientResource is a resource the node is short of.
type InsufficientResource struct {
	ResourceName corev1.ResourceName
	// Reason is the phrase of the FailedScheduling message.
	Reason string
	// Requested is what the pod asks; Used what the node's pods already
	// requested; Capacity the node's allocatable amount.
	Requested, Used, Capacity int64
	// Unresolvable means the pod asks for more than Capacity, so evicting
	// pods cannot make room.
	Unresolvable bool
}

// Fits returns the resources nodeInfo is short of to run pod; none if it
// fits. A kubelet can use it to admit pods as the scheduler would.
func Fits(pod *corev1.Pod, nodeInfo *framework.NodeInfo) []InsufficientResource {
	return fitsRequest(framework.PodRequests(pod, framework.PodRequestsOptions{}), nodeInfo)
}

// fitsRequest compares the pod's requests with what is left of the node's
// allocatable: the pod count always (every pod takes one of the node's
// "pods"), then each resource the pod requests, in a fixed order (cpu,
// memory, ephemeral-storage, then scalar resources by name) so the
// reasons do not depend on map order.
//
// Upstream: noderesources.fitsRequest.
func fitsRequest(req framework.Resource, nodeInfo *framework.NodeInfo) []InsufficientResource {
	var out []InsufficientResource
	alloc, used := &nodeInfo.Allocatable, &nodeInfo.Requested
	if allowed := alloc.AllowedPodNumber; len(nodeInfo.Pods)+1 > allowed {
		out = append(out, InsufficientResource{
			ResourceName: corev1.ResourcePods, Reason: "Too many pods",
			Requested: 1, Used: int64(len(nodeInfo.Pods)), Capacity: int64(allowed),
		})
	}
	check := func(name corev1.ResourceName, want, used, capacity int64) {
		if want > 0 && want > capacity-used {
			out = append(out, InsufficientResource{
				ResourceName: name, Reason: fmt.Sprintf("Insufficient %v", name),
				Requested: want, Used: used, Capacity: capacity, Unresolvable: want > capacity,
			})
		}
	}
	check(corev1.ResourceCPU, req.MilliCPU, used.MilliCPU, alloc.MilliCPU)
	check(corev1.ResourceMemory, req.Memory, used.Memory, alloc.Memory)
	check(corev1.ResourceEphemeralStorage, req.EphemeralStorage, used.EphemeralStorage, alloc.EphemeralStorage)
	if len(req.ScalarResources) > 0 {
		scalars := make([]corev1.ResourceName, 0, len(req.ScalarResources))
		for name := range req.ScalarResources {
			scalars = append(scalars, name)
		}
		slices.Sort(scalars)
		for _, name := range scalars {
			check(name, req.ScalarResources[name], used.ScalarResources[name], alloc.ScalarResources[name])
		}
	}
	return out
}

// preScoreState is the pod's requests for scoring, in the order of
// f.resources; never modified after PreScore.
type preScoreState struct{ podRequests []int64 }

// Clone returns s.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore computes the pod's requests for scoring once for all nodes,
// counting framework.DefaultMilliCPURequest and DefaultMemoryRequest for
// containers that request no cpu or memory.
func (f *Fit) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(preScoreStateKey, &preScoreState{podRequests: podRequestList(pod, f.resources, true)})
	return nil
}

// Score is the LeastAllocated score of the node with the pod on it (see
// leastAllocatedScore), counting the node's NonZeroRequested cpu and
// memory.
func (f *Fit) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	var podRequests []int64
	if d, err := state.Read(preScoreStateKey); err == nil {
		podRequests = d.(*preScoreState).podRequests
	} else {
		podRequests = podRequestList(pod, f.resources, true)
	}
	var reqBuf, allocBuf [maxResources]int64
	requested, allocatable := reqBuf[:len(f.resources)], allocBuf[:len(f.resources)]
	for i, r := range f.resources {
		allocatable[i], requested[i] = allocatableRequested(nodeInfo, r.name, podRequests[i], false)
	}
	return leastAllocatedScore(requested, allocatable, f.resources), nil
}

// ScoreExtensions returns nil: scores are already 0-100.
func (f *Fit) ScoreExtensions() framework.ScoreExtensions { return nil }
