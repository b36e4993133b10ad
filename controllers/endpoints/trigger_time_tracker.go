package endpoints

import (
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/reconcile"
)

// triggerTimeTracker computes the last-change-trigger-time annotation:
// when the earliest change happened that the Endpoints write about to be
// made reflects, so that a reader can measure how long a change took to
// reach the Endpoints (the endpoints propagation latency SLI). A pod's
// change time is its Ready condition's lastTransitionTime; a Service's,
// its creation time.
//
// It is approximate, as upstream's: a pod that changes twice between two
// syncs counts with its last change. ComputeTriggerTime may be called
// concurrently for different Services, never for one Service; the
// controller's queue guarantees that.
//
// Upstream: k8s.io/endpointslice/util (TriggerTimeTracker).
type triggerTimeTracker struct {
	// mu guards services.
	mu sync.Mutex
	// services holds each Service's trigger times as last computed.
	services map[reconcile.NamespacedName]serviceTriggerState
}

// serviceTriggerState is what the tracker saw of one Service last time.
type serviceTriggerState struct {
	serviceTime time.Time
	// podTimes maps a pod's name to its trigger time.
	podTimes map[string]time.Time
}

func newTriggerTimeTracker() *triggerTimeTracker {
	return &triggerTimeTracker{services: map[reconcile.NamespacedName]serviceTriggerState{}}
}

// ComputeTriggerTime records the trigger times of svc and pods (those its
// selector matches) and returns the annotation's value: the Service's
// creation time for a Service not seen before, else the earliest trigger
// time that changed since the last call, or zero when none did (the
// annotation is then removed).
//
// Upstream: k8s.io/endpointslice/util
// (TriggerTimeTracker.ComputeEndpointLastChangeTriggerTime).
func (t *triggerTimeTracker) ComputeTriggerTime(svc *corev1.Service, pods []*corev1.Pod) time.Time {
	key := reconcile.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}
	t.mu.Lock()
	last, known := t.services[key]
	t.mu.Unlock()

	var earliest time.Time
	note := func(at time.Time) {
		if earliest.IsZero() || at.Before(earliest) {
			earliest = at
		}
	}
	next := serviceTriggerState{serviceTime: svc.CreationTimestamp.Time, podTimes: map[string]time.Time{}}
	for _, pod := range pods {
		c := podReadyCondition(&pod.Status)
		if c == nil || c.LastTransitionTime.IsZero() {
			continue
		}
		at := c.LastTransitionTime.Time
		next.podTimes[pod.Name] = at
		if at.After(last.podTimes[pod.Name]) {
			note(at)
		}
	}
	if next.serviceTime.After(last.serviceTime) {
		note(next.serviceTime)
	}

	t.mu.Lock()
	t.services[key] = next
	t.mu.Unlock()
	if !known {
		return svc.CreationTimestamp.Time
	}
	return earliest
}

// DeleteService forgets a deleted Service.
func (t *triggerTimeTracker) DeleteService(key reconcile.NamespacedName) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.services, key)
}
