package admission

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// How long a pod stays on a node that is not ready or unreachable,
// unless it says otherwise: five minutes, kube-apiserver's
// --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds. A node that comes back
// within that time keeps its pods.
const (
	DefaultNotReadyTolerationSeconds    int64 = 300
	DefaultUnreachableTolerationSeconds int64 = 300
)

// DefaultTolerationSeconds gives every pod, on create and update, a
// toleration of DefaultNotReadyTolerationSeconds and
// DefaultUnreachableTolerationSeconds for the NoExecute taints
// node.kubernetes.io/not-ready and node.kubernetes.io/unreachable that
// the node lifecycle controller puts on unhealthy nodes, unless it
// already tolerates that taint: a toleration of its key (or of every
// key) with effect NoExecute (or every effect), whatever its seconds.
// Without it, a pod would be evicted the moment its node missed its
// heartbeats. Writes to subresources (status, binding) are left alone.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds.
type DefaultTolerationSeconds struct{}

var _ MutationInterface = DefaultTolerationSeconds{}

// Name implements Plugin.
func (DefaultTolerationSeconds) Name() string { return "DefaultTolerationSeconds" }

// Handles implements Plugin: creates and updates. On update the
// tolerations are back if a client's full replacement left them out, so
// the pod passes the rule that tolerations may only be added.
func (DefaultTolerationSeconds) Handles(op Operation) bool { return op == Create || op == Update }

// Admit implements MutationInterface.
func (DefaultTolerationSeconds) Admit(_ context.Context, a *Attributes) error {
	if a.Resource.Group != "" || a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("expected a Pod, got %T", a.Object))
	}
	toleratesNotReady, toleratesUnreachable := false, false
	for _, t := range pod.Spec.Tolerations {
		if t.Effect != "" && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		toleratesNotReady = toleratesNotReady || t.Key == "" || t.Key == corev1.TaintNodeNotReady
		toleratesUnreachable = toleratesUnreachable || t.Key == "" || t.Key == corev1.TaintNodeUnreachable
	}
	if !toleratesNotReady {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, defaultToleration(corev1.TaintNodeNotReady, DefaultNotReadyTolerationSeconds))
	}
	if !toleratesUnreachable {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, defaultToleration(corev1.TaintNodeUnreachable, DefaultUnreachableTolerationSeconds))
	}
	return nil
}

// defaultToleration tolerates the NoExecute taint key for seconds.
func defaultToleration(key string, seconds int64) corev1.Toleration {
	return corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &seconds}
}
