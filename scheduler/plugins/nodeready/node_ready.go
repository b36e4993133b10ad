package nodeready

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
	"github.com/minicp/minicp/scheduler/plugins/tainttoleration"
)

// Name is the plugin's name in the configuration.
const Name = names.NodeReady

// ErrReasonNotReady is the reason of a rejection.
const ErrReasonNotReady = "node(s) were not ready"

// NodeReady is the plugin. It is stateless.
type NodeReady struct{}

var _ framework.FilterPlugin = (*NodeReady)(nil)

// New returns the plugin.
func New() (framework.Plugin, error) { return &NodeReady{}, nil }

// Name returns Name.
func (pl *NodeReady) Name() string { return Name }

// Filter passes a node whose Ready condition is True. Otherwise it
// rejects it, UnschedulableAndUnresolvable (evicting pods does not make a
// node ready), unless the pod tolerates the NoSchedule taint upstream's
// node lifecycle controller would have set: node.kubernetes.io/unreachable
// for Unknown, node.kubernetes.io/not-ready for False or no condition.
func (pl *NodeReady) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	status := readyStatus(nodeInfo.Node())
	if status == corev1.ConditionTrue {
		return nil
	}
	taint := corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoSchedule}
	if status == corev1.ConditionUnknown {
		taint.Key = corev1.TaintNodeUnreachable
	}
	if tainttoleration.TolerationsTolerateTaint(pod.Spec.Tolerations, &taint) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNotReady)
}

// readyStatus is the status of the node's Ready condition, "" if it has
// none.
func readyStatus(node *corev1.Node) corev1.ConditionStatus {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status
		}
	}
	return ""
}
