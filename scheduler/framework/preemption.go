package framework

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The per-node reasons of upstream's DefaultPreemption dry run.
const (
	// ReasonPreemptionNotHelpful is a node whose rejection preemption
	// cannot change (UnschedulableAndUnresolvable).
	ReasonPreemptionNotHelpful = "Preemption is not helpful for scheduling"
	// ReasonNoPreemptionVictims is a node with no pod of lower priority
	// than the incoming one.
	ReasonNoPreemptionVictims = "No preemption victims found for incoming pod"
)

// preemptionMessage returns the "preemption: ..." clause of the
// FailedScheduling message. minicp does not preempt; this is the dry run
// of upstream's DefaultPreemption PostFilter without the eviction, so the
// message reads as it would upstream:
//
//  1. A pod with preemptionPolicy Never may not preempt: "preemption: not
//     eligible due to preemptionPolicy=Never."
//  2. A node rejected as UnschedulableAndUnresolvable counts as
//     "Preemption is not helpful for scheduling".
//  3. A node with no pod of lower priority (spec.priority, 0 when unset)
//     counts as "No preemption victims found for incoming pod".
//  4. Otherwise the filters run again as if every lower-priority pod were
//     gone; if the pod still does not fit, the node counts under the new
//     rejection's reasons.
//  5. If it does fit somewhere, upstream would preempt there and report
//     no clause; neither does minicp (but it preempts nothing).
//
// Upstream: pkg/scheduler/framework/preemption (Evaluator.Preempt,
// findCandidates) and defaultpreemption (SelectVictimsOnNode,
// PodEligibleToPreemptOthers).
func (f *Framework) preemptionMessage(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo, d Diagnosis) string {
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == corev1.PreemptNever {
		return "preemption: not eligible due to preemptionPolicy=Never."
	}
	prio := podPriority(pod)
	dryRun := Diagnosis{NodeToStatus: make(map[string]*Status, len(nodes))}
	for _, n := range nodes {
		name := n.Node().Name
		if d.NodeToStatus[name].Code() == UnschedulableAndUnresolvable {
			dryRun.NodeToStatus[name] = NewStatus(UnschedulableAndUnresolvable, ReasonPreemptionNotHelpful)
			continue
		}
		// without is the node as it would be after evicting every pod of
		// lower priority.
		without := &NodeInfo{node: n.node, Allocatable: n.Allocatable.Clone()}
		for _, pi := range n.Pods {
			if podPriority(pi.Pod) >= prio {
				without.AddPodInfo(pi)
			}
		}
		if len(without.Pods) == len(n.Pods) {
			dryRun.NodeToStatus[name] = NewStatus(UnschedulableAndUnresolvable, ReasonNoPreemptionVictims)
			continue
		}
		s := f.RunFilterPlugins(ctx, state.Clone(), pod, without)
		if s.IsSuccess() {
			return ""
		}
		dryRun.NodeToStatus[name] = s
	}
	fe := FitError{Pod: pod, NumAllNodes: len(nodes), Diagnosis: dryRun}
	return "preemption: " + fe.Error()
}

// podPriority is spec.priority, or 0 when unset (minicp has no priority
// admission to fill it).
func podPriority(pod *corev1.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}
