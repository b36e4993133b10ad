package job

import (
	"time"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// IsJobFinished reports whether job has a Complete or Failed condition
// that is True: the job controller will not touch it again, and the
// TTL-after-finished controller may delete it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job/util (IsJobFinished).
func IsJobFinished(job *batchv1.Job) bool {
	for _, c := range job.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// newCondition returns a condition of cType that changed at now.
func newCondition(cType batchv1.JobConditionType, status corev1.ConditionStatus, reason, message string, now time.Time) *batchv1.JobCondition {
	return &batchv1.JobCondition{
		Type:               cType,
		Status:             status,
		LastProbeTime:      metav1.NewTime(now),
		LastTransitionTime: metav1.NewTime(now),
		Reason:             reason,
		Message:            message,
	}
}

// findConditionByType returns the condition of cType in list, or nil; the
// pointer is into list.
func findConditionByType(list []batchv1.JobCondition, cType batchv1.JobConditionType) *batchv1.JobCondition {
	for i := range list {
		if list[i].Type == cType {
			return &list[i]
		}
	}
	return nil
}

// hasTrueCondition returns the condition of cType in job's status if it
// is True, else nil.
func hasTrueCondition(job *batchv1.Job, cType batchv1.JobConditionType) *batchv1.JobCondition {
	if c := findConditionByType(job.Status.Conditions, cType); c != nil && c.Status == corev1.ConditionTrue {
		return c
	}
	return nil
}

// ensureJobConditionStatus sets the condition of cType in list to status,
// reason and message, reporting whether list changed. A condition that is
// absent is added only when it is not False: going from nothing to False
// says nothing.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (ensureJobConditionStatus).
func ensureJobConditionStatus(list []batchv1.JobCondition, cType batchv1.JobConditionType, status corev1.ConditionStatus, reason, message string, now time.Time) ([]batchv1.JobCondition, bool) {
	if c := findConditionByType(list, cType); c != nil {
		if c.Status != status || c.Reason != reason || c.Message != message {
			*c = *newCondition(cType, status, reason, message, now)
			return list, true
		}
		return list, false
	}
	if status != corev1.ConditionFalse {
		return append(list, *newCondition(cType, status, reason, message, now)), true
	}
	return list, false
}

// The interim conditions. A Job that is going to finish first gets
// FailureTarget or SuccessCriteriaMet, and Failed or Complete only once
// every pod is counted and none is still terminating, so a client that
// sees Failed or Complete knows no pod of the Job runs any more.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (newFailureCondition,
// newSuccessCondition, with delayTerminalCondition true, as with the
// JobManagedBy and JobPodReplacementPolicy features on).
func newFailureCondition(reason, message string, now time.Time) *batchv1.JobCondition {
	return newCondition(batchv1.JobFailureTarget, corev1.ConditionTrue, reason, message, now)
}

func newSuccessCondition(now time.Time) *batchv1.JobCondition {
	return newCondition(batchv1.JobSuccessCriteriaMet, corev1.ConditionTrue,
		batchv1.JobReasonCompletionsReached, "Reached expected number of succeeded pods", now)
}

// finalCondition turns an interim condition into the terminal one it
// announces, keeping its reason and message.
func finalCondition(interim *batchv1.JobCondition, now time.Time) *batchv1.JobCondition {
	cType := batchv1.JobFailed
	if interim.Type == batchv1.JobSuccessCriteriaMet {
		cType = batchv1.JobComplete
	}
	return newCondition(cType, corev1.ConditionTrue, interim.Reason, interim.Message, now)
}
