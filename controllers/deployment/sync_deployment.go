package deployment

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/logging"
)

// Reconcile syncs the Deployment req names. A conflict (the cache was
// stale) is not an error: the request is retried, reading again, and the
// newer object's event brings it back anyway.
func (r *reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cached, err := r.deployments.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		// Deleted: the garbage collector removes its ReplicaSets.
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	// Never modify the cache's object. Objects from a list may lack their
	// kind, which the events about d need.
	d := cached.DeepCopy()
	d.TypeMeta = metav1.TypeMeta{Kind: controllerKind.Kind, APIVersion: controllerKind.GroupVersion().String()}
	res, err := r.syncDeployment(ctx, d)
	if apierrors.IsConflict(err) {
		logging.FromContext(ctx).Debug("conflict, retrying", "err", err)
		return reconcile.Result{Requeue: true}, nil
	}
	return res, err
}

// syncDeployment moves d one step towards its spec:
//
//  1. a Deployment selecting everything is refused (it would claim every
//     ReplicaSet of its namespace);
//  2. it claims its ReplicaSets (adopting orphans, releasing the ones it
//     no longer selects) and groups their pods;
//  3. a Deployment being deleted only gets its status updated;
//  4. a paused Deployment, or one that was scaled, is scaled
//     (proportionally if a rollout is under way), nothing more;
//  5. otherwise its strategy rolls it out: Recreate or RollingUpdate.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.syncDeployment).
func (r *reconciler) syncDeployment(ctx context.Context, d *appsv1.Deployment) (reconcile.Result, error) {
	if d.Spec.Selector == nil || d.Spec.Replicas == nil {
		// The API server requires the one and defaults the other: this
		// Deployment was not written through it, and retrying cannot help.
		return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.selector or spec.replicas is not set"))
	}
	if len(d.Spec.Selector.MatchLabels)+len(d.Spec.Selector.MatchExpressions) == 0 {
		r.recorder.Event(d, corev1.EventTypeWarning, "SelectingAll",
			"This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			if err := r.updateStatus(ctx, d); err != nil {
				return reconcile.Result{}, err
			}
		}
		return reconcile.Result{}, nil
	}
	rsList, err := r.getReplicaSetsForDeployment(ctx, d)
	if err != nil {
		return reconcile.Result{}, err
	}
	podMap, err := r.getPodMapForDeployment(d, rsList)
	if err != nil {
		return reconcile.Result{}, err
	}
	if d.DeletionTimestamp != nil {
		return reconcile.Result{}, r.syncStatusOnly(ctx, d, rsList)
	}
	// Update the paused condition first, so a long pause is not measured
	// as lack of progress.
	if err := r.checkPausedConditions(ctx, d); err != nil {
		return reconcile.Result{}, err
	}
	if d.Spec.Paused {
		return reconcile.Result{}, r.sync(ctx, d, rsList)
	}
	scaling, err := r.isScalingEvent(ctx, d, rsList)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaling {
		return reconcile.Result{}, r.sync(ctx, d, rsList)
	}
	switch d.Spec.Strategy.Type {
	case appsv1.RecreateDeploymentStrategyType:
		return r.rolloutRecreate(ctx, d, rsList, podMap)
	case appsv1.RollingUpdateDeploymentStrategyType:
		return r.rolloutRolling(ctx, d, rsList)
	}
	return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("unexpected deployment strategy type %q", d.Spec.Strategy.Type))
}

// getReplicaSetsForDeployment returns the ReplicaSets d owns once it has
// adopted the orphans its selector matches and released the ones it no
// longer does. Adoption checks first, against the API server, that d is
// not being deleted: the cached copy may be stale.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.getReplicaSetsForDeployment).
func (r *reconciler) getReplicaSetsForDeployment(ctx context.Context, d *appsv1.Deployment) ([]*appsv1.ReplicaSet, error) {
	all, err := r.replicaSets.ByNamespace(d.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	if err != nil {
		// Validation rejects such a selector; retrying cannot help.
		return nil, reconcile.TerminalError(fmt.Errorf("invalid label selector: %w", err))
	}
	m := controllerref.For(d, controllerKind, sel, r.client.Deployments(d.Namespace), r.client.ReplicaSets(d.Namespace))
	return controllerref.Claim(ctx, m, all)
}

// getPodMapForDeployment returns d's pods grouped by the UID of the
// ReplicaSet among rsList that controls them. Only Recreate uses it, to
// wait until the old pods are gone, so it looks at the controllerRef, not
// the pod-template-hash label, which a user may have changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.getPodMapForDeployment).
func (r *reconciler) getPodMapForDeployment(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (map[string][]*corev1.Pod, error) {
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	if err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("invalid label selector: %w", err))
	}
	pods, err := r.pods.ByNamespace(d.Namespace).List(sel)
	if err != nil {
		return nil, err
	}
	podMap := make(map[string][]*corev1.Pod, len(rsList))
	for _, rs := range rsList {
		podMap[rs.UID] = nil
	}
	for _, pod := range pods {
		ref := pod.ControllerRef()
		if ref == nil {
			continue
		}
		if _, ok := podMap[ref.UID]; ok {
			podMap[ref.UID] = append(podMap[ref.UID], pod)
		}
	}
	return podMap, nil
}

// updateStatus writes d's status (and, as upstream, its revision
// annotation: the status subresource keeps metadata changes but labels)
// and takes the stored object back into d, so a second write in the same
// sync does not conflict with the first.
func (r *reconciler) updateStatus(ctx context.Context, d *appsv1.Deployment) error {
	updated, err := r.client.Deployments(d.Namespace).UpdateStatus(ctx, d, client.WriteOptions{})
	if err != nil {
		return err
	}
	tm := d.TypeMeta
	*d = *updated
	d.TypeMeta = tm
	return nil
}
