package deployment

import (
	"context"
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/logging"
)

// syncStatusOnly updates d's status and does nothing else: for a
// Deployment being deleted.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.syncStatusOnly).
func (r *reconciler) syncStatusOnly(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := r.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	return r.syncDeploymentStatus(ctx, withNew(oldRSs, newRS), newRS, d)
}

// sync scales d's ReplicaSets to its size without rolling anything out:
// for a paused Deployment, and for a scaling event. A paused Deployment's
// old ReplicaSets are cleaned up too.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.sync).
func (r *reconciler) sync(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := r.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	if err := r.scale(ctx, d, newRS, oldRSs); err != nil {
		return err
	}
	if d.Spec.Paused {
		if err := r.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return r.syncDeploymentStatus(ctx, withNew(oldRSs, newRS), newRS, d)
}

// checkPausedConditions sets Progressing=Unknown with DeploymentPaused
// when d is paused and DeploymentResumed when it is resumed, so the time
// spent paused is not taken for lack of progress. A timed-out rollout
// keeps its condition.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.checkPausedConditions).
func (r *reconciler) checkPausedConditions(ctx context.Context, d *appsv1.Deployment) error {
	if !hasProgressDeadline(d) {
		return nil
	}
	cond := getDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	if cond != nil && cond.Reason == TimedOutReason {
		return nil
	}
	pausedCondExists := cond != nil && cond.Reason == PausedDeployReason
	switch {
	case d.Spec.Paused && !pausedCondExists:
		setDeploymentCondition(&d.Status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentProgressing,
			corev1.ConditionUnknown, PausedDeployReason, "Deployment is paused"))
	case !d.Spec.Paused && pausedCondExists:
		setDeploymentCondition(&d.Status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentProgressing,
			corev1.ConditionUnknown, ResumedDeployReason, "Deployment is resumed"))
	default:
		return nil
	}
	return r.updateStatus(ctx, d)
}

// isScalingEvent reports whether d's size differs from the size its
// active ReplicaSets were last scaled for (their desired-replicas
// annotation): a scaling event, not a rollout.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.isScalingEvent).
func (r *reconciler) isScalingEvent(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := r.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range filterActiveReplicaSets(withNew(oldRSs, newRS)) {
		desired, ok := intAnnotation(rs, DesiredReplicasAnnotation)
		if ok && desired != *d.Spec.Replicas {
			return true, nil
		}
	}
	return false, nil
}

// scale brings the ReplicaSets to d's size. One active ReplicaSet (or
// none: the newest) takes all of it; a saturated new ReplicaSet leaves
// the old ones at 0; otherwise, mid-rollout, the replicas to add or
// remove are shared among the active ReplicaSets in proportion to their
// sizes, so the rollout goes on where it was.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.scale).
func (r *reconciler) scale(ctx context.Context, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) error {
	if rs := findActiveOrLatest(newRS, oldRSs); rs != nil {
		if *rs.Spec.Replicas == *d.Spec.Replicas {
			return nil
		}
		_, _, err := r.scaleReplicaSetAndRecordEvent(ctx, rs, *d.Spec.Replicas, d)
		return err
	}
	if isSaturated(d, newRS) {
		for _, old := range filterActiveReplicaSets(oldRSs) {
			if _, _, err := r.scaleReplicaSetAndRecordEvent(ctx, old, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if !isRollingUpdate(d) {
		return nil
	}
	allRSs := filterActiveReplicaSets(withNew(oldRSs, newRS))
	var allowed int32
	if *d.Spec.Replicas > 0 {
		allowed = *d.Spec.Replicas + maxSurge(d)
	}
	// Replicas to add (or, negative, to remove) across the ReplicaSets.
	toAdd := allowed - replicaCount(allRSs)
	// Larger ReplicaSets first; among equals, a scale-up favours the newer
	// and a scale-down takes from the older.
	operation := ""
	switch {
	case toAdd > 0:
		slices.SortFunc(allRSs, bySizeNewer)
		operation = "up"
	case toAdd < 0:
		slices.SortFunc(allRSs, bySizeOlder)
		operation = "down"
	}
	var added int32
	sizes := make([]int32, len(allRSs))
	for i, rs := range allRSs {
		proportion := replicaSetProportion(rs, d, toAdd, added)
		sizes[i] = *rs.Spec.Replicas + proportion
		added += proportion
	}
	// Rounding leaves a few replicas over (or short): the largest
	// ReplicaSet takes them.
	if len(allRSs) > 0 && toAdd != 0 {
		sizes[0] = max(sizes[0]+toAdd-added, 0)
	}
	for i, rs := range allRSs {
		if _, _, err := r.scaleReplicaSet(ctx, rs, sizes[i], d, operation); err != nil {
			return err
		}
	}
	return nil
}

// scaleReplicaSetAndRecordEvent scales rs to newScale, if it is not
// there already; see scaleReplicaSet.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.scaleReplicaSetAndRecordEvent).
func (r *reconciler) scaleReplicaSetAndRecordEvent(ctx context.Context, rs *appsv1.ReplicaSet, newScale int32, d *appsv1.Deployment) (bool, *appsv1.ReplicaSet, error) {
	if *rs.Spec.Replicas == newScale {
		return false, rs, nil
	}
	operation := "down"
	if *rs.Spec.Replicas < newScale {
		operation = "up"
	}
	return r.scaleReplicaSet(ctx, rs, newScale, d, operation)
}

// scaleReplicaSet sets rs's spec.replicas to newScale and its replicas
// annotations to d's current size, in one update, and records a
// ScalingReplicaSet event on d when the size changed. It reports whether
// it scaled, and returns rs as stored. rs is not modified.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.scaleReplicaSet).
func (r *reconciler) scaleReplicaSet(ctx context.Context, rs *appsv1.ReplicaSet, newScale int32, d *appsv1.Deployment, operation string) (bool, *appsv1.ReplicaSet, error) {
	sizeNeedsUpdate := *rs.Spec.Replicas != newScale
	maxReplicas := *d.Spec.Replicas + maxSurge(d)
	if !sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, *d.Spec.Replicas, maxReplicas) {
		return false, rs, nil
	}
	oldScale := *rs.Spec.Replicas
	rsCopy := rs.DeepCopy()
	rsCopy.Spec.Replicas = &newScale
	setReplicasAnnotations(rsCopy, *d.Spec.Replicas, maxReplicas)
	updated, err := r.client.ReplicaSets(rsCopy.Namespace).Update(ctx, rsCopy, client.WriteOptions{})
	if err != nil {
		return false, rs, err
	}
	if !sizeNeedsUpdate {
		return false, updated, nil
	}
	r.recorder.Eventf(d, corev1.EventTypeNormal, "ScalingReplicaSet", "Scaled %s replica set %s from %d to %d",
		operation, updated.Name, oldScale, newScale)
	return true, updated, nil
}

// cleanupDeployment deletes d's oldest ReplicaSets beyond
// revisionHistoryLimit, among those scaled to 0 with no pods left and
// their last scale observed: they are only kept for rollbacks.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.cleanupDeployment).
func (r *reconciler) cleanupDeployment(ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) error {
	if !hasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*appsv1.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := len(cleanable) - int(*d.Spec.RevisionHistoryLimit)
	if diff <= 0 {
		return nil
	}
	slices.SortFunc(cleanable, byRevision)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || *rs.Spec.Replicas != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		logging.FromContext(ctx).Debug("deleting old replica set", "name", rs.Name)
		// The UID precondition spares a ReplicaSet recreated under the
		// same name meanwhile.
		uid := rs.UID
		err := r.client.ReplicaSets(rs.Namespace).Delete(ctx, rs.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) {
			// Stop at the first error rather than hammer a struggling
			// API server; the next sync goes on.
			return fmt.Errorf("delete old replica set %s: %w", rs.Name, err)
		}
	}
	return nil
}

// syncDeploymentStatus writes d's status as calculated from its
// ReplicaSets, if it changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.syncDeploymentStatus).
func (r *reconciler) syncDeploymentStatus(ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	status := r.calculateStatus(allRSs, newRS, d)
	if statusEqual(&d.Status, &status) {
		return nil
	}
	d.Status = status
	return r.updateStatus(ctx, d)
}

// calculateStatus is d's status from its ReplicaSets' statuses: the
// counts, the current generation observed, and the Available condition.
// Other conditions are carried over.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (calculateStatus).
func (r *reconciler) calculateStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) appsv1.DeploymentStatus {
	available := availableReplicaCount(allRSs)
	// More available than wanted happens while scaling down: none is
	// unavailable then.
	unavailable := max(replicaCount(allRSs)-available, 0)
	status := appsv1.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            actualReplicaCount(allRSs),
		UpdatedReplicas:     actualReplicaCount([]*appsv1.ReplicaSet{newRS}),
		ReadyReplicas:       readyReplicaCount(allRSs),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		TerminatingReplicas: terminatingReplicaCount(allRSs),
		CollisionCount:      d.Status.CollisionCount,
		Conditions:          slices.Clone(d.Status.Conditions),
	}
	if available >= *d.Spec.Replicas-maxUnavailable(d) {
		setDeploymentCondition(&status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentAvailable,
			corev1.ConditionTrue, MinimumReplicasAvailable, "Deployment has minimum availability."))
	} else {
		setDeploymentCondition(&status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentAvailable,
			corev1.ConditionFalse, MinimumReplicasUnavailable, "Deployment does not have minimum availability."))
	}
	return status
}
