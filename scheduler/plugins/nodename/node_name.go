package nodename

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// Name is the plugin's name in the configuration.
const Name = names.NodeName

// ErrReason is the reason of a rejection.
const ErrReason = "node(s) didn't match the requested node name"

// NodeName is the plugin. It is stateless.
type NodeName struct{}

var _ framework.FilterPlugin = (*NodeName)(nil)

// New returns the plugin.
func New() (framework.Plugin, error) { return &NodeName{}, nil }

// Name returns Name.
func (pl *NodeName) Name() string { return Name }

// Filter rejects every node but the one the pod names, if it names one,
// UnschedulableAndUnresolvable.
func (pl *NodeName) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if !Fits(pod, nodeInfo) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
	}
	return nil
}

// Fits reports whether pod names no node or names this one.
func Fits(pod *corev1.Pod, nodeInfo *framework.NodeInfo) bool {
	return pod.Spec.NodeName == "" || pod.Spec.NodeName == nodeInfo.Node().Name
}
