package job

import (
	"slices"
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// DefaultJobPodFailureBackOff is how long a Job waits after a pod failure
// before it replaces the pod; each further failure since the last success
// doubles the wait, up to MaxJobPodFailureBackOff ("10s, 20s, 40s ...
// capped at six minutes", as the Kubernetes documentation says). It keeps
// a Job whose pods crash at once from hammering the scheduler and the
// kubelets.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (DefaultJobPodFailureBackOff).
const DefaultJobPodFailureBackOff = 10 * time.Second

// MaxJobPodFailureBackOff caps the pod failure backoff.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (MaxJobPodFailureBackOff;
// recent releases raised it to 10 minutes, the documentation still says
// six).
const MaxJobPodFailureBackOff = 6 * time.Minute

// backoffRecord is what the pod failure backoff of one Job is computed
// from: the failures since its last success, and when the last of them
// happened (nil without failures).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (backoffRecord).
type backoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// backoffStore keeps each Job's backoffRecord between syncs: the pods it
// was computed from lose their tracking finalizer once counted, and may
// be gone by the next sync. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (backoffStore).
type backoffStore struct {
	// mu guards records, keyed by the Job's "namespace/name".
	mu      sync.Mutex
	records map[string]backoffRecord
}

func newBackoffStore() *backoffStore {
	return &backoffStore{records: map[string]backoffRecord{}}
}

// update stores record as its Job's.
func (s *backoffStore) update(record backoffRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[record.key] = record
}

// remove forgets the record of key, as for a finished or deleted Job.
func (s *backoffStore) remove(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.records, key)
}

// newRecord returns the record of key once the pods that finished since
// the last sync are taken into account: a success resets the count to
// the failures after it; failures add up. The store is not changed: the
// caller stores the record once the Job's status holds the pods (the
// pods may otherwise be counted again by the next sync).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (backoffStore.newBackoffRecord).
func (s *backoffStore) newRecord(key string, newSucceeded, newFailed []*corev1.Pod) backoffRecord {
	s.mu.Lock()
	record, ok := s.records[key]
	s.mu.Unlock()
	if !ok {
		record = backoffRecord{key: key}
	}
	newSucceeded = sortByFinishedTime(newSucceeded)
	newFailed = sortByFinishedTime(newFailed)
	switch {
	case len(newFailed) == 0 && len(newSucceeded) == 0:
		return record
	case len(newSucceeded) == 0:
		record.failuresAfterLastSuccess += int32(len(newFailed))
		last := getFinishedTime(newFailed[len(newFailed)-1])
		record.lastFailureTime = &last
		return record
	}
	// A success: only the failures after the last success count.
	record.failuresAfterLastSuccess = 0
	record.lastFailureTime = nil
	lastSuccess := getFinishedTime(newSucceeded[len(newSucceeded)-1])
	for i := len(newFailed) - 1; i >= 0; i-- {
		failed := getFinishedTime(newFailed[i])
		if !failed.After(lastSuccess) {
			break
		}
		if record.lastFailureTime == nil {
			record.lastFailureTime = &failed
		}
		record.failuresAfterLastSuccess++
	}
	return record
}

// remainingTime is how long the Job must still wait, on clk, before it
// replaces a failed pod: 0 when the backoff is over or there were no
// failures.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (getRemainingTimeForFailuresCount).
func (r backoffRecord) remainingTime(clk clock.Clock, defaultBackoff, maxBackoff time.Duration) time.Duration {
	if r.failuresAfterLastSuccess == 0 || r.lastFailureTime == nil {
		return 0
	}
	b := wait.Backoff{Initial: defaultBackoff, Factor: 2, Cap: maxBackoff}
	backoff := b.Delay(int(r.failuresAfterLastSuccess) - 1)
	elapsed := clk.Since(*r.lastFailureTime)
	if backoff < elapsed {
		return 0
	}
	return backoff - elapsed
}

// sortByFinishedTime returns pods sorted by getFinishedTime, oldest
// first, without changing pods (a slice of the cache's objects).
func sortByFinishedTime(pods []*corev1.Pod) []*corev1.Pod {
	out := slices.Clone(pods)
	slices.SortStableFunc(out, func(a, b *corev1.Pod) int {
		return getFinishedTime(a).Compare(getFinishedTime(b))
	})
	return out
}

// getFinishedTime estimates when p finished:
//
//  1. when its last container terminated, if all did;
//  2. else when its Ready condition turned False (kubelets set it as a
//     pod ends);
//  3. else when it was deleted: deletionTimestamp minus the grace period;
//  4. else its creation, which a cluster with kubelets never needs.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (getFinishedTime).
func getFinishedTime(p *corev1.Pod) time.Time {
	if t := finishTimeFromContainers(p); t != nil {
		return *t
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionFalse && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.Time
		}
	}
	if p.DeletionTimestamp != nil {
		var grace int64
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp.Time
}

// finishTimeFromContainers is the latest finish of p's containers, or nil
// if one has not terminated (or says not when).
func finishTimeFromContainers(p *corev1.Pod) *time.Time {
	var latest *time.Time
	for i := range p.Status.ContainerStatuses {
		term := p.Status.ContainerStatuses[i].State.Terminated
		if term == nil || term.FinishedAt.IsZero() {
			return nil
		}
		if latest == nil || latest.Before(term.FinishedAt.Time) {
			latest = &term.FinishedAt.Time
		}
	}
	return latest
}
