package tainttoleration

import (
	"context"
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// Name is the plugin's name in the configuration.
const Name = names.TaintToleration

// preScoreStateKey is where PreScore leaves the pod's tolerations of
// PreferNoSchedule taints.
const preScoreStateKey framework.StateKey = "PreScore" + Name

// TaintToleration is the plugin. It is stateless.
type TaintToleration struct{}

var (
	_ framework.FilterPlugin    = (*TaintToleration)(nil)
	_ framework.PreScorePlugin  = (*TaintToleration)(nil)
	_ framework.ScorePlugin     = (*TaintToleration)(nil)
	_ framework.ScoreExtensions = (*TaintToleration)(nil)
)

// New returns the plugin.
func New() (framework.Plugin, error) { return &TaintToleration{}, nil }

// Name returns Name.
func (pl *TaintToleration) Name() string { return Name }

// Filter rejects a node with a NoSchedule or NoExecute taint the pod does
// not tolerate, naming the first such taint: "node(s) had untolerated
// taint {key: value}". The rejection is UnschedulableAndUnresolvable:
// evicting pods does not remove a taint.
func (pl *TaintToleration) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	taint, untolerated := FindMatchingUntoleratedTaint(nodeInfo.Node().Spec.Taints, pod.Spec.Tolerations, doNotSchedule)
	if !untolerated {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable,
		fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value))
}

// doNotSchedule selects the taints Filter enforces; PreferNoSchedule is
// only a preference, which Score counts.
func doNotSchedule(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

// preScoreState is the pod's tolerations that can tolerate a
// PreferNoSchedule taint.
type preScoreState struct {
	tolerations []corev1.Toleration
}

// Clone returns s: it is never modified after PreScore.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore keeps the tolerations with effect PreferNoSchedule or none (an
// empty effect tolerates every effect).
func (pl *TaintToleration) PreScore(_ context.Context, state *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(preScoreStateKey, newPreScoreState(pod))
	return nil
}

func newPreScoreState(pod *corev1.Pod) *preScoreState {
	s := &preScoreState{}
	for _, t := range pod.Spec.Tolerations {
		if t.Effect == "" || t.Effect == corev1.TaintEffectPreferNoSchedule {
			s.tolerations = append(s.tolerations, t)
		}
	}
	return s
}

// Score counts the node's PreferNoSchedule taints that the pod does not
// tolerate. NormalizeScore turns the count around, so fewer is better.
func (pl *TaintToleration) Score(_ context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	s, ok := readPreScoreState(state)
	if !ok {
		// PreScore did not run (a caller scoring one node by hand).
		s = newPreScoreState(pod)
	}
	var n int64
	for i := range nodeInfo.Node().Spec.Taints {
		taint := &nodeInfo.Node().Spec.Taints[i]
		if taint.Effect == corev1.TaintEffectPreferNoSchedule && !TolerationsTolerateTaint(s.tolerations, taint) {
			n++
		}
	}
	return n, nil
}

func readPreScoreState(state *framework.CycleState) (*preScoreState, bool) {
	d, err := state.Read(preScoreStateKey)
	if err != nil {
		return nil, false
	}
	s, ok := d.(*preScoreState)
	return s, ok
}

// ScoreExtensions returns pl: it has NormalizeScore.
func (pl *TaintToleration) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps the counts to 0-100 reversed: the node with the most
// untolerated PreferNoSchedule taints gets 0, a node with none gets 100,
// and every node gets 100 when none has any.
func (pl *TaintToleration) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	return framework.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}
