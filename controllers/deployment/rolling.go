package deployment

import (
	"context"
	"fmt"
	"slices"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	"github.com/minicp/minicp/controllers/reconcile"
)

// rolloutRolling takes one step of a rolling update: scale the new
// ReplicaSet up within maxSurge, or else the old ones down within
// maxUnavailable; once the rollout is complete, clean up old ReplicaSets.
// Each step ends with the status, and the next step waits for the
// ReplicaSets' changes to come back through the cache.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.rolloutRolling).
func (r *reconciler) rolloutRolling(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (reconcile.Result, error) {
	newRS, oldRSs, err := r.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
	if err != nil {
		return reconcile.Result{}, err
	}
	allRSs := withNew(oldRSs, newRS)

	scaledUp, err := r.reconcileNewReplicaSet(ctx, allRSs, newRS, d)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaledUp {
		return r.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	scaledDown, err := r.reconcileOldReplicaSets(ctx, allRSs, filterActiveReplicaSets(oldRSs), newRS, d)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaledDown {
		return r.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if deploymentComplete(d, &d.Status) {
		if err := r.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return reconcile.Result{}, err
		}
	}
	return r.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// reconcileNewReplicaSet scales the new ReplicaSet towards spec.replicas
// as far as maxSurge allows (down at once if it has more), and reports
// whether it scaled.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.reconcileNewReplicaSet).
func (r *reconciler) reconcileNewReplicaSet(ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	if *newRS.Spec.Replicas == *d.Spec.Replicas {
		return false, nil
	}
	if *newRS.Spec.Replicas > *d.Spec.Replicas {
		scaled, _, err := r.scaleReplicaSetAndRecordEvent(ctx, newRS, *d.Spec.Replicas, d)
		return scaled, err
	}
	n, err := newRSNewReplicas(d, allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _, err := r.scaleReplicaSetAndRecordEvent(ctx, newRS, n, d)
	return scaled, err
}

// reconcileOldReplicaSets scales the old ReplicaSets down as far as
// maxUnavailable allows: first their unhealthy replicas, which cost no
// availability, then available ones while more than spec.replicas -
// maxUnavailable pods are available. It reports whether it scaled.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.reconcileOldReplicaSets).
func (r *reconciler) reconcileOldReplicaSets(ctx context.Context, allRSs, oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	if replicaCount(oldRSs) == 0 {
		return false, nil
	}
	minAvailable := *d.Spec.Replicas - maxUnavailable(d)
	newRSUnavailable := *newRS.Spec.Replicas - safeAvailable(newRS)
	// The most that can go: what would be left must still hold
	// minAvailable once the new ReplicaSet's pods are all up, and the
	// ones not yet available cannot count.
	maxScaledDown := replicaCount(allRSs) - minAvailable - newRSUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	// Unhealthy replicas first, or they would block the rollout until it
	// times out (upstream issue 16737).
	oldRSs, cleanedUp, err := r.cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown)
	if err != nil {
		return false, err
	}
	scaledDown, err := r.scaleDownOldReplicaSetsForRollingUpdate(ctx, withNew(oldRSs, newRS), oldRSs, d)
	if err != nil {
		return false, err
	}
	return cleanedUp+scaledDown > 0, nil
}

// cleanupUnhealthyReplicas scales the old ReplicaSets, oldest first, down
// by their unavailable replicas, at most maxCleanup in all. The
// replicaset controller deletes not-ready pods first, so this removes the
// unhealthy ones without reducing availability. It returns oldRSs with
// the scaled ones as stored, and how many replicas went.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.cleanupUnhealthyReplicas).
func (r *reconciler) cleanupUnhealthyReplicas(ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment, maxCleanup int32) ([]*appsv1.ReplicaSet, int32, error) {
	oldRSs = slices.Clone(oldRSs)
	slices.SortFunc(oldRSs, byCreationTimestamp)
	var total int32
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		unhealthy := *rs.Spec.Replicas - safeAvailable(rs)
		if *rs.Spec.Replicas == 0 || unhealthy == 0 {
			continue
		}
		n := min(maxCleanup-total, unhealthy)
		_, updated, err := r.scaleReplicaSetAndRecordEvent(ctx, rs, *rs.Spec.Replicas-n, d)
		if err != nil {
			return nil, total, err
		}
		total += n
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate scales the old ReplicaSets,
// oldest first, down by the available pods above spec.replicas -
// maxUnavailable, and returns how many replicas went.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.scaleDownOldReplicaSetsForRollingUpdate).
func (r *reconciler) scaleDownOldReplicaSetsForRollingUpdate(ctx context.Context, allRSs, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) (int32, error) {
	minAvailable := *d.Spec.Replicas - maxUnavailable(d)
	var available int32
	for _, rs := range allRSs {
		if rs != nil {
			available += safeAvailable(rs)
		}
	}
	if available <= minAvailable {
		return 0, nil
	}
	oldRSs = slices.Clone(oldRSs)
	slices.SortFunc(oldRSs, byCreationTimestamp)
	toScaleDown := available - minAvailable
	var total int32
	for _, rs := range oldRSs {
		if total >= toScaleDown {
			break
		}
		if *rs.Spec.Replicas == 0 {
			continue
		}
		n := min(*rs.Spec.Replicas, toScaleDown-total)
		if n < 0 {
			return total, fmt.Errorf("invalid scale down of %s by %d", rs.Name, n)
		}
		if _, _, err := r.scaleReplicaSetAndRecordEvent(ctx, rs, *rs.Spec.Replicas-n, d); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
