package queue

import (
	"reflect"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// QueuedPodInfo is a pod in the scheduling queue, with what the queue
// knows about its attempts. The queue owns it while the pod is queued;
// Pop hands it to the scheduling cycle, which may set Pod and
// UnschedulablePlugins and hands it back with AddUnschedulableIfNotPresent,
// after which it must not read or write it any more (an update may change
// Pod at once). Done takes it only as a key.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (QueuedPodInfo).
type QueuedPodInfo struct {
	// Pod is the pod as the informer last showed it; shared with the
	// informer's cache, so never modified.
	Pod *corev1.Pod
	// Timestamp is when the pod was last queued: the activeQ orders by it,
	// and its backoff counts from it.
	Timestamp time.Time
	// Attempts is how many times Pop handed the pod out.
	Attempts int
	// InitialAttemptTimestamp is the time of the first Pop; zero before.
	InitialAttemptTimestamp time.Time
	// UnschedulablePlugins are the plugins that rejected the pod in its
	// last attempt (the FitError's Diagnosis); only events they registered
	// for move it out of unschedulablePods. Empty after an error, which
	// sends the pod to backoffQ instead.
	UnschedulablePlugins map[string]struct{}

	// seq breaks ties between pods of equal priority queued at the same
	// instant (common on a fake clock): the one queued first goes first.
	seq uint64
	// cycle is the scheduling cycle of the last Pop.
	cycle int64
}

// podKey is the key of a pod in every part of the queue.
func podKey(pod *corev1.Pod) string { return pod.Namespace + "/" + pod.Name }

// podPriority is spec.priority, 0 when unset.
func podPriority(pod *corev1.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// activeQLess orders the activeQ: higher priority first, then earlier
// Timestamp, then earlier arrival.
//
// Upstream: plugins/queuesort (PrioritySort.Less), plus seq.
func activeQLess(a, b *QueuedPodInfo) bool {
	pa, pb := podPriority(a.Pod), podPriority(b.Pod)
	if pa != pb {
		return pa > pb
	}
	if !a.Timestamp.Equal(b.Timestamp) {
		return a.Timestamp.Before(b.Timestamp)
	}
	return a.seq < b.seq
}

// isPodUpdated reports whether an update changed more than the pod's
// status and bookkeeping: only such a change can make a rejected pod fit,
// so only it moves the pod out of unschedulablePods. The scheduler's own
// PodScheduled condition write must not wake the pod it describes.
//
// Upstream: scheduling_queue.go (isPodUpdated).
func isPodUpdated(oldPod, newPod *corev1.Pod) bool {
	strip := func(p *corev1.Pod) corev1.Pod {
		c := *p // the fields cleared below are the only ones changed
		c.ResourceVersion = ""
		c.Generation = 0
		c.ManagedFields = nil
		c.Finalizers = nil
		c.Status = corev1.PodStatus{}
		return c
	}
	return !reflect.DeepEqual(strip(oldPod), strip(newPod))
}
