package deployment

import (
	"context"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/reconcile"
)

// rolloutRecreate takes one step of a Recreate rollout: scale every old
// ReplicaSet to 0; once none of their pods runs, create the new
// ReplicaSet (not before: old and new pods never run together) and scale
// it to spec.replicas; once the rollout is complete, clean up.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.rolloutRecreate).
func (r *reconciler) rolloutRecreate(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, podMap map[string][]*corev1.Pod) (reconcile.Result, error) {
	// Do not create the new ReplicaSet yet: it would scale up before the
	// old ones are down.
	newRS, oldRSs, err := r.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return reconcile.Result{}, err
	}
	allRSs := withNew(oldRSs, newRS)

	scaledDown, err := r.scaleDownOldReplicaSetsForRecreate(ctx, filterActiveReplicaSets(oldRSs), d)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaledDown {
		return r.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	// The old pods' deletions bring this Deployment back (deletePod).
	if oldPodsRunning(newRS, oldRSs, podMap) {
		return r.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = r.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
		if err != nil {
			return reconcile.Result{}, err
		}
		allRSs = withNew(oldRSs, newRS)
	}
	if _, _, err := r.scaleReplicaSetAndRecordEvent(ctx, newRS, *d.Spec.Replicas, d); err != nil {
		return reconcile.Result{}, err
	}
	if deploymentComplete(d, &d.Status) {
		if err := r.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return reconcile.Result{}, err
		}
	}
	return r.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// scaleDownOldReplicaSetsForRecreate scales every old ReplicaSet to 0 and
// reports whether any was scaled.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.scaleDownOldReplicaSetsForRecreate).
func (r *reconciler) scaleDownOldReplicaSetsForRecreate(ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	scaled := false
	for _, rs := range oldRSs {
		if *rs.Spec.Replicas == 0 {
			continue
		}
		ok, _, err := r.scaleReplicaSetAndRecordEvent(ctx, rs, 0, d)
		if err != nil {
			return false, err
		}
		scaled = scaled || ok
	}
	return scaled, nil
}

// oldPodsRunning reports whether an old ReplicaSet still has pods: by its
// status, or by a pod in podMap that has not reached Succeeded or Failed
// (a terminating pod still runs; a pod in phase Unknown may be running).
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (oldPodsRunning).
func oldPodsRunning(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet, podMap map[string][]*corev1.Pod) bool {
	if actualReplicaCount(oldRSs) > 0 {
		return true
	}
	for rsUID, pods := range podMap {
		if newRS != nil && newRS.UID == rsUID {
			continue
		}
		for _, pod := range pods {
			if pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed {
				return true
			}
		}
	}
	return false
}
