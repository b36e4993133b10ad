package deployment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/reconcile"
)

// syncRolloutStatus writes d's status during a rollout: the counts and
// Available, as calculateStatus, plus the Progressing condition:
//
//   - True, NewReplicaSetAvailable: the rollout is complete;
//   - True, ReplicaSetUpdated: it made progress since the last status
//     (lastUpdateTime moves, lastTransitionTime stays);
//   - False, ProgressDeadlineExceeded: no progress for
//     progressDeadlineSeconds, on the manager's clock;
//
// and the ReplicaSets' ReplicaFailure condition, if any. A rollout still
// under way is checked again when its deadline would pass: the Result
// asks for it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.syncRolloutStatus).
func (r *reconciler) syncRolloutStatus(ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (reconcile.Result, error) {
	status := r.calculateStatus(allRSs, newRS, d)
	now := r.clock.Now()
	if !hasProgressDeadline(d) {
		removeDeploymentCondition(&status, appsv1.DeploymentProgressing)
	}
	// A complete rollout seen again (a resync) is not measured.
	current := getDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	isComplete := status.Replicas == status.UpdatedReplicas && current != nil && current.Reason == NewRSAvailableReason
	if hasProgressDeadline(d) && !isComplete {
		switch {
		case deploymentComplete(d, &status):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Name)
			}
			setDeploymentCondition(&status, newDeploymentCondition(now, appsv1.DeploymentProgressing,
				corev1.ConditionTrue, NewRSAvailableReason, msg))
		case deploymentProgressing(d, &status):
			msg := fmt.Sprintf("Deployment %q is progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", newRS.Name)
			}
			c := newDeploymentCondition(now, appsv1.DeploymentProgressing, corev1.ConditionTrue, ReplicaSetUpdatedReason, msg)
			// Progress moves lastUpdateTime even when the reason stays,
			// which setDeploymentCondition would not do: replace the
			// condition, keeping when it turned True.
			if current != nil {
				if current.Status == corev1.ConditionTrue {
					c.LastTransitionTime = current.LastTransitionTime
				}
				removeDeploymentCondition(&status, appsv1.DeploymentProgressing)
			}
			setDeploymentCondition(&status, c)
		case deploymentTimedOut(now, d, &status):
			msg := fmt.Sprintf("Deployment %q has timed out progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Name)
			}
			setDeploymentCondition(&status, newDeploymentCondition(now, appsv1.DeploymentProgressing,
				corev1.ConditionFalse, TimedOutReason, msg))
		}
	}
	if failures := replicaFailures(allRSs, newRS); len(failures) > 0 {
		setDeploymentCondition(&status, failures[0])
	} else {
		removeDeploymentCondition(&status, appsv1.DeploymentReplicaFailure)
	}
	if !statusEqual(&d.Status, &status) {
		d.Status = status
		if err := r.updateStatus(ctx, d); err != nil {
			return reconcile.Result{}, err
		}
	}
	return r.requeueStuckDeployment(now, d), nil
}

// replicaFailures returns the ReplicaFailure conditions of the new
// ReplicaSet or, if it has none, of the others.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.getReplicaFailures).
func replicaFailures(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []appsv1.DeploymentCondition {
	collect := func(rss ...*appsv1.ReplicaSet) []appsv1.DeploymentCondition {
		var out []appsv1.DeploymentCondition
		for _, rs := range rss {
			if rs == nil {
				continue
			}
			for _, c := range rs.Status.Conditions {
				if c.Type == appsv1.ReplicaSetReplicaFailure {
					out = append(out, replicaSetToDeploymentCondition(c))
				}
			}
		}
		return out
	}
	if conds := collect(newRS); len(conds) > 0 {
		return conds
	}
	return collect(allRSs...)
}

// requeueStuckDeployment returns when d must be synced again to see
// whether its rollout timed out: when the progress deadline, counted from
// the Progressing condition's last update, passes (plus a second, so the
// check falls after it). Nothing is asked for a Deployment without a
// deadline or a Progressing condition, or whose rollout completed or
// timed out already; any progress comes back as a ReplicaSet event
// anyway.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.requeueStuckDeployment).
func (r *reconciler) requeueStuckDeployment(now time.Time, d *appsv1.Deployment) reconcile.Result {
	current := getDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	if !hasProgressDeadline(d) || current == nil {
		return reconcile.Result{}
	}
	if deploymentComplete(d, &d.Status) || current.Reason == TimedOutReason {
		return reconcile.Result{}
	}
	after := current.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(now)
	if after < time.Second {
		// Due now: rate limited, in case the clock and the condition
		// disagree for a while.
		return reconcile.Result{Requeue: true}
	}
	return reconcile.Result{RequeueAfter: after + time.Second}
}

// statusEqual reports whether two statuses are the same on the wire,
// times compared to the second as they are stored.
func statusEqual(a, b *appsv1.DeploymentStatus) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
