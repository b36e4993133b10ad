package nodeunschedulable

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
	"github.com/minicp/minicp/scheduler/plugins/tainttoleration"
)

// Name is the plugin's name in the configuration.
const Name = names.NodeUnschedulable

// ErrReasonUnschedulable is the reason of a rejection.
const ErrReasonUnschedulable = "node(s) were unschedulable"

// NodeUnschedulable is the plugin. It is stateless.
type NodeUnschedulable struct{}

var _ framework.FilterPlugin = (*NodeUnschedulable)(nil)

// New returns the plugin.
func New() (framework.Plugin, error) { return &NodeUnschedulable{}, nil }

// Name returns Name.
func (pl *NodeUnschedulable) Name() string { return Name }

// Filter rejects a cordoned node, UnschedulableAndUnresolvable, unless the
// pod tolerates the taint that stands for the cordon.
func (pl *NodeUnschedulable) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if !nodeInfo.Node().Spec.Unschedulable {
		return nil
	}
	taint := corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}
	if tainttoleration.TolerationsTolerateTaint(pod.Spec.Tolerations, &taint) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)
}
