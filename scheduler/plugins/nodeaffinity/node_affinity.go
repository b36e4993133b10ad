package nodeaffinity

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// Name is the plugin's name in the configuration.
const Name = names.NodeAffinity

// ErrReasonPod is the reason of a rejection.
const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector"

// The CycleState keys of the parsed affinity.
const (
	preFilterStateKey framework.StateKey = "PreFilter" + Name
	preScoreStateKey  framework.StateKey = "PreScore" + Name
)

// NodeAffinity is the plugin. It is stateless.
type NodeAffinity struct{}

var (
	_ framework.PreFilterPlugin = (*NodeAffinity)(nil)
	_ framework.FilterPlugin    = (*NodeAffinity)(nil)
	_ framework.PreScorePlugin  = (*NodeAffinity)(nil)
	_ framework.ScorePlugin     = (*NodeAffinity)(nil)
	_ framework.ScoreExtensions = (*NodeAffinity)(nil)
)

// New returns the plugin.
func New() (framework.Plugin, error) { return &NodeAffinity{}, nil }

// Name returns Name.
func (pl *NodeAffinity) Name() string { return Name }

// preFilterState is the parsed required affinity; never modified after
// PreFilter.
type preFilterState struct{ required RequiredNodeAffinity }

// Clone returns s.
func (s *preFilterState) Clone() framework.StateData { return s }

// PreFilter parses the pod's node selector and required node affinity
// once for all nodes, and returns Skip when the pod has neither.
func (pl *NodeAffinity) PreFilter(_ context.Context, state *framework.CycleState, pod *corev1.Pod) *framework.Status {
	r := GetRequiredNodeAffinity(pod)
	if r.IsEmpty() {
		return framework.NewStatus(framework.Skip)
	}
	state.Write(preFilterStateKey, &preFilterState{required: r})
	return nil
}

// Filter rejects a node that lacks a label of spec.nodeSelector or
// matches none of the required node affinity terms,
// UnschedulableAndUnresolvable: evicting pods does not relabel a node.
func (pl *NodeAffinity) Filter(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	var required RequiredNodeAffinity
	if d, err := state.Read(preFilterStateKey); err == nil {
		required = d.(*preFilterState).required
	} else {
		// PreFilter did not run (a caller filtering one node by hand).
		required = GetRequiredNodeAffinity(pod)
	}
	if !required.Match(nodeInfo.Node()) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	}
	return nil
}

// preScoreState is the parsed preferred affinity; never modified after
// PreScore.
type preScoreState struct{ preferred PreferredSchedulingTerms }

// Clone returns s.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore parses the pod's preferred node affinity terms once for all
// nodes, and returns Skip when it has none: the plugin then adds nothing
// to any node's score.
func (pl *NodeAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	terms := preferredTerms(pod)
	if len(terms) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	state.Write(preScoreStateKey, &preScoreState{preferred: NewPreferredSchedulingTerms(terms)})
	return nil
}

func preferredTerms(pod *corev1.Pod) []corev1.PreferredSchedulingTerm {
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		return a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	return nil
}

// Score is the sum of the weights (1-100 each) of the preferred terms the
// node matches. NormalizeScore scales it to 0-100.
func (pl *NodeAffinity) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	var preferred PreferredSchedulingTerms
	if d, err := state.Read(preScoreStateKey); err == nil {
		preferred = d.(*preScoreState).preferred
	} else {
		preferred = NewPreferredSchedulingTerms(preferredTerms(pod))
	}
	return preferred.Score(nodeInfo.Node()), nil
}

// ScoreExtensions returns pl: it has NormalizeScore.
func (pl *NodeAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore scales the sums so the best node gets 100.
func (pl *NodeAffinity) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	return framework.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}
