package deployment

import (
	"math"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The reasons of the Available and Progressing conditions, which kubectl
// rollout status reads.
const (
	// MinimumReplicasAvailable: Available=True, at least spec.replicas -
	// maxUnavailable pods are available.
	MinimumReplicasAvailable = "MinimumReplicasAvailable"
	// MinimumReplicasUnavailable: Available=False.
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	// NewReplicaSetReason: Progressing=True, the new ReplicaSet was created.
	NewReplicaSetReason = "NewReplicaSetCreated"
	// FoundNewRSReason: Progressing=True, the new ReplicaSet was found.
	FoundNewRSReason = "FoundNewReplicaSet"
	// ReplicaSetUpdatedReason: Progressing=True, the rollout advanced.
	ReplicaSetUpdatedReason = "ReplicaSetUpdated"
	// NewRSAvailableReason: Progressing=True, the rollout is complete.
	NewRSAvailableReason = "NewReplicaSetAvailable"
	// TimedOutReason: Progressing=False, no progress for
	// progressDeadlineSeconds.
	TimedOutReason = "ProgressDeadlineExceeded"
	// PausedDeployReason: Progressing=Unknown, the Deployment is paused.
	PausedDeployReason = "DeploymentPaused"
	// ResumedDeployReason: Progressing=Unknown, the Deployment was resumed.
	ResumedDeployReason = "DeploymentResumed"
	// FailedRSCreateReason: Progressing=False, the new ReplicaSet could not
	// be created.
	FailedRSCreateReason = "ReplicaSetCreateError"
)

// newDeploymentCondition returns a condition that changed at now.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (NewDeploymentCondition).
func newDeploymentCondition(now time.Time, t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, message string) appsv1.DeploymentCondition {
	ts := metav1.NewTime(now.UTC())
	return appsv1.DeploymentCondition{
		Type: t, Status: status, Reason: reason, Message: message,
		LastUpdateTime: ts, LastTransitionTime: ts,
	}
}

// getDeploymentCondition returns the condition of type t, or nil.
func getDeploymentCondition(status *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// setDeploymentCondition sets c, unless a condition of its type already
// has its status and reason. A condition whose status stays keeps its
// lastTransitionTime.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (SetDeploymentCondition).
func setDeploymentCondition(status *appsv1.DeploymentStatus, c appsv1.DeploymentCondition) {
	current := getDeploymentCondition(status, c.Type)
	if current != nil && current.Status == c.Status && current.Reason == c.Reason {
		return
	}
	if current != nil && current.Status == c.Status {
		c.LastTransitionTime = current.LastTransitionTime
	}
	status.Conditions = append(filterOutCondition(status.Conditions, c.Type), c)
}

// removeDeploymentCondition removes the condition of type t.
func removeDeploymentCondition(status *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) {
	status.Conditions = filterOutCondition(status.Conditions, t)
}

// filterOutCondition returns a new slice of the conditions not of type t.
func filterOutCondition(conds []appsv1.DeploymentCondition, t appsv1.DeploymentConditionType) []appsv1.DeploymentCondition {
	var out []appsv1.DeploymentCondition
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// replicaSetToDeploymentCondition turns a ReplicaSet's condition into the
// Deployment's condition of the same type.
func replicaSetToDeploymentCondition(c appsv1.ReplicaSetCondition) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{
		Type: appsv1.DeploymentConditionType(c.Type), Status: c.Status, Reason: c.Reason, Message: c.Message,
		LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime,
	}
}

// hasProgressDeadline reports whether d's progress is measured: a
// progressDeadlineSeconds of MaxInt32 means never, as upstream.
func hasProgressDeadline(d *appsv1.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// hasRevisionHistoryLimit reports whether old ReplicaSets are cleaned up.
func hasRevisionHistoryLimit(d *appsv1.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// deploymentComplete reports whether status shows d fully rolled out: all
// replicas updated and available, nothing else running, and the current
// generation observed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (DeploymentComplete).
func deploymentComplete(d *appsv1.Deployment, status *appsv1.DeploymentStatus) bool {
	n := *d.Spec.Replicas
	return status.UpdatedReplicas == n && status.Replicas == n && status.AvailableReplicas == n &&
		status.ObservedGeneration >= d.Generation
}

// deploymentProgressing reports whether status moved the rollout on from
// d's current status: more updated, ready or available pods, or fewer
// old ones.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (DeploymentProgressing).
func deploymentProgressing(d *appsv1.Deployment, status *appsv1.DeploymentStatus) bool {
	old := d.Status
	oldOld := old.Replicas - old.UpdatedReplicas
	newOld := status.Replicas - status.UpdatedReplicas
	return status.UpdatedReplicas > old.UpdatedReplicas || newOld < oldOld ||
		status.ReadyReplicas > old.ReadyReplicas || status.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut reports whether the rollout made no progress for
// progressDeadlineSeconds since the Progressing condition was last
// updated, as of now.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (DeploymentTimedOut).
func deploymentTimedOut(now time.Time, d *appsv1.Deployment, status *appsv1.DeploymentStatus) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	c := getDeploymentCondition(status, appsv1.DeploymentProgressing)
	if c == nil {
		return false
	}
	// A complete rollout is not measured: a stale copy of the Deployment
	// may still say so while its new ReplicaSet is being created.
	switch c.Reason {
	case NewRSAvailableReason:
		return false
	case TimedOutReason:
		return true
	}
	deadline := c.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second)
	return deadline.Before(now)
}
