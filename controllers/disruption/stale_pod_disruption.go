package disruption

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// stalePodDisruptionTimeout is how long a pod may keep a True
// DisruptionTarget condition without being deleted before the condition
// is reset to False: whoever meant to delete it (an eviction whose delete
// failed) evidently did not.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (stalePodDisruptionTimeout).
const stalePodDisruptionTimeout = 2 * time.Minute

// addStalePodDisruption adds the loop that resets stale DisruptionTarget
// conditions, reading pods from the lister given.
func addStalePodDisruption(mgr *manager.Manager, pods *informer.Lister[*corev1.Pod]) error {
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("disruption: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("disruption: %w", err)
	}
	r := &stalePodDisruption{pods: pods, cs: cs, clock: mgr.GetClock()}
	if err := builder.ControllerManagedBy(mgr).Named(ControllerName + "-stale-pod").For(&corev1.Pod{}).Complete(r); err != nil {
		return fmt.Errorf("disruption: %w", err)
	}
	return nil
}

// stalePodDisruption resets the DisruptionTarget condition of one pod
// once it is stale.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption
// (DisruptionController.syncStalePodDisruption).
type stalePodDisruption struct {
	pods  *informer.Lister[*corev1.Pod]
	cs    *client.Clientset
	clock clock.Clock
}

// Reconcile implements reconcile.Reconciler.
func (r *stalePodDisruption) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pod, err := r.pods.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	stale, wait := r.staleCondition(pod)
	if !stale {
		return reconcile.Result{}, nil
	}
	if wait > 0 {
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	out := pod.DeepCopy()
	i := conditionIndex(out.Status.Conditions)
	out.Status.Conditions[i] = corev1.PodCondition{
		Type: corev1.DisruptionTarget, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(r.clock.Now()),
	}
	_, err = r.cs.Pods(pod.Namespace).UpdateStatus(ctx, out, client.WriteOptions{})
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, err
}

// staleCondition reports whether pod has a DisruptionTarget condition
// that goes stale if the pod is not deleted, and how long until it is.
// The kubelet's own condition never goes stale, nor does a finished
// pod's.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption
// (DisruptionController.nonTerminatingPodHasStaleDisruptionCondition).
func (r *stalePodDisruption) staleCondition(pod *corev1.Pod) (bool, time.Duration) {
	if pod.DeletionTimestamp != nil || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return false, 0
	}
	i := conditionIndex(pod.Status.Conditions)
	if i < 0 {
		return false, 0
	}
	c := pod.Status.Conditions[i]
	if c.Status != corev1.ConditionTrue || c.Reason == "TerminationByKubelet" {
		return false, 0
	}
	return true, max(stalePodDisruptionTimeout-r.clock.Since(c.LastTransitionTime.Time), 0)
}

func conditionIndex(conditions []corev1.PodCondition) int {
	return slices.IndexFunc(conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.DisruptionTarget })
}
