package replicaset

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// calculateStatus returns rs's status given its active and terminating
// pods at now, and the error of the sync's creates or deletes, which sets
// the ReplicaFailure condition (cleared by a sync without one). It does
// not set observedGeneration: updateStatus does, when it writes.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (calculateStatus).
func calculateStatus(rs *appsv1.ReplicaSet, active, terminating []*corev1.Pod, manageErr error, now time.Time) appsv1.ReplicaSetStatus {
	status := rs.Status
	// Cloned: the conditions below must not write into the cache's copy.
	status.Conditions = slices.Clone(rs.Status.Conditions)
	// The template's labels are a superset of the selector: a pod with
	// all of them is "fully labeled".
	templateLabels := labels.SelectorFromSet(rs.Spec.Template.Labels)
	var fullyLabeled, ready, available int32
	for _, pod := range active {
		if templateLabels.Matches(labels.Set(pod.Labels)) {
			fullyLabeled++
		}
		if isPodReady(pod) {
			ready++
			if isPodAvailable(pod, rs.Spec.MinReadySeconds, now) {
				available++
			}
		}
	}

	failure := replicaSetCondition(rs.Status, appsv1.ReplicaSetReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		var reason string
		if diff := len(active) - int(specReplicas(rs)); diff < 0 {
			reason = reasonFailedCreate
		} else if diff > 0 {
			reason = reasonFailedDelete
		}
		setReplicaSetCondition(&status, appsv1.ReplicaSetCondition{
			Type:               appsv1.ReplicaSetReplicaFailure,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(now),
			Reason:             reason,
			Message:            manageErr.Error(),
		})
	case manageErr == nil && failure != nil:
		status.Conditions = withoutCondition(status.Conditions, appsv1.ReplicaSetReplicaFailure)
	}

	status.Replicas = int32(len(active))
	status.FullyLabeledReplicas = fullyLabeled
	status.ReadyReplicas = ready
	status.AvailableReplicas = available
	terminatingReplicas := int32(len(terminating))
	status.TerminatingReplicas = &terminatingReplicas
	return status
}

// updateStatus writes status as rs's status through the status
// subresource, with observedGeneration set to the generation the sync
// acted on, unless nothing would change. A conflict (the cache is behind)
// is retried on a fresh read statusUpdateRetries times; the error after
// that makes the sync retry. It returns the ReplicaSet as written.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (updateReplicaSetStatus).
func (r *Reconciler) updateStatus(ctx context.Context, rs *appsv1.ReplicaSet, status appsv1.ReplicaSetStatus) (*appsv1.ReplicaSet, error) {
	if rs.Generation == rs.Status.ObservedGeneration && statusEqual(rs.Status, status) {
		return rs, nil
	}
	status.ObservedGeneration = rs.Generation
	rsClient := r.clientset.ReplicaSets(rs.Namespace)
	cur := rs.DeepCopy()
	var updated *appsv1.ReplicaSet
	// The retries follow at once: each re-reads the object first.
	retry := wait.Backoff{Steps: statusUpdateRetries + 1}
	err := client.RetryOnConflict(ctx, retry, func() error {
		if cur == nil {
			var err error
			if cur, err = rsClient.Get(ctx, rs.Name, client.GetOptions{}); err != nil {
				return err
			}
			if cur.UID != rs.UID {
				// Deleted and created again meanwhile: this status is not
				// the new one's. Its own sync will write it.
				return fmt.Errorf("replaced (uid %s, wanted %s)", cur.UID, rs.UID)
			}
		}
		cur.Status = status
		var err error
		updated, err = rsClient.UpdateStatus(ctx, cur, client.WriteOptions{})
		cur = nil // stale if it conflicted
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("update status of replicaset %s: %w", keyFor(rs), err)
	}
	return updated, nil
}

// statusEqual reports whether a and b agree on everything a sync
// computes (not observedGeneration).
func statusEqual(a, b appsv1.ReplicaSetStatus) bool {
	return a.Replicas == b.Replicas &&
		a.FullyLabeledReplicas == b.FullyLabeledReplicas &&
		a.ReadyReplicas == b.ReadyReplicas &&
		a.AvailableReplicas == b.AvailableReplicas &&
		equalPtr(a.TerminatingReplicas, b.TerminatingReplicas) &&
		reflect.DeepEqual(a.Conditions, b.Conditions)
}

// equalPtr reports whether a and b are both nil or point to equal values.
func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// replicaSetCondition returns the condition of type t in status, or nil.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (GetCondition).
func replicaSetCondition(status appsv1.ReplicaSetStatus, t appsv1.ReplicaSetConditionType) *appsv1.ReplicaSetCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// setReplicaSetCondition puts c in status, replacing the condition of its
// type unless that one has the same status and reason already (its
// transition time and message are then kept).
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (SetCondition).
func setReplicaSetCondition(status *appsv1.ReplicaSetStatus, c appsv1.ReplicaSetCondition) {
	if cur := replicaSetCondition(*status, c.Type); cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	status.Conditions = append(withoutCondition(status.Conditions, c.Type), c)
}

// withoutCondition returns conditions without those of type t, in a new
// slice (nil when none is left).
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (filterOutCondition).
func withoutCondition(conditions []appsv1.ReplicaSetCondition, t appsv1.ReplicaSetConditionType) []appsv1.ReplicaSetCondition {
	var out []appsv1.ReplicaSetCondition
	for _, c := range conditions {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}
