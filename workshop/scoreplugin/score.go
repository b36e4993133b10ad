//go:build !solution

package scoreplugin

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/workshop/exercise"
)

// Score ranks one feasible node for pod: framework.MaxNodeScore for a
// node labelled PreferredLabel="true", framework.MinNodeScore for any
// other. It must only read nodeInfo.
//
// TODO(you): nodeInfo.Node() is the Node; read its labels. Return a nil
// *Status for success.
func (pl *PreferLabelledNodes) Score(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	return 0, framework.AsStatus(exercise.NotDone("Score in workshop/scoreplugin/score.go"))
}
