//go:build solution

package scoreplugin

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
)

// Score ranks one feasible node for pod: MaxNodeScore for a node
// labelled PreferredLabel="true", MinNodeScore for any other.
func (pl *PreferLabelledNodes) Score(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	if nodeInfo.Node().Labels[PreferredLabel] == "true" {
		return framework.MaxNodeScore, nil
	}
	return framework.MinNodeScore, nil
}
