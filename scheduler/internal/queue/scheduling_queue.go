package queue

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// The defaults of Options: upstream's.
const (
	// DefaultPodInitialBackoff is the backoff after a pod's first failed
	// attempt; it doubles with every further attempt.
	DefaultPodInitialBackoff = time.Second
	// DefaultPodMaxBackoff caps the backoff, so a pod that failed many
	// times is still retried every ten seconds once it may fit.
	DefaultPodMaxBackoff = 10 * time.Second
	// DefaultPodMaxInUnschedulablePodsDuration is how long a pod waits in
	// unschedulablePods for an event before it is retried anyway: a safety
	// net for events the filter judged irrelevant, or missed.
	DefaultPodMaxInUnschedulablePodsDuration = 5 * time.Minute
)

// Options configures New. The zero Options uses the defaults.
type Options struct {
	// Clock drives backoff and the flush of unschedulable pods. Defaults
	// to clock.Real.
	Clock clock.Clock
	// PodInitialBackoff defaults to DefaultPodInitialBackoff.
	PodInitialBackoff time.Duration
	// PodMaxBackoff defaults to DefaultPodMaxBackoff.
	PodMaxBackoff time.Duration
	// PodMaxInUnschedulablePodsDuration defaults to
	// DefaultPodMaxInUnschedulablePodsDuration.
	PodMaxInUnschedulablePodsDuration time.Duration
	// EventsToRegister maps a plugin name to the events that can make a
	// pod it rejected schedulable. A pod rejected only by plugins listed
	// here leaves unschedulablePods only on a matching event; a plugin not
	// listed matches every event.
	EventsToRegister map[string][]ClusterEvent
	// OnChange, when set, is called after every change of the queue's
	// state, without the queue's lock held and on the goroutine that made
	// the change: the scheduler's quiescence barrier listens to it. It must
	// not block.
	OnChange func()
}

// Stats counts the pods in each part of the queue.
type Stats struct {
	Active, Backoff, Unschedulable, InFlight int
}

// PriorityQueue is the scheduling queue; see the package doc for its
// parts. It is safe for concurrent use: informer handlers add, update and
// delete, the scheduling loop pops, binding goroutines requeue and call
// Done, and Run moves pods on timers.
//
// Upstream: scheduling_queue.go (PriorityQueue).
type PriorityQueue struct {
	clock clock.Clock
	// backoff is the pods' backoff; each pod's Attempts count its steps.
	backoff          wait.Backoff
	maxInUnscheduled time.Duration
	events           map[string][]ClusterEvent
	onChange         func()

	// mu guards the fields below. Invariant: a key is in at most one of
	// activeQ, backoffQ and unschedulablePods.
	mu                sync.Mutex
	activeQ           *keyedHeap[*QueuedPodInfo]
	backoffQ          *keyedHeap[*QueuedPodInfo]
	unschedulablePods map[string]*QueuedPodInfo
	// inFlight are the pods popped and not Done yet. It is keyed by the
	// QueuedPodInfo, not the pod: a pod deleted and created again under
	// its name may be in flight twice. The values are the queue's own:
	// the QueuedPodInfo belongs to the scheduling cycle meanwhile.
	inFlight map[*QueuedPodInfo]*inFlightPod
	// schedulingCycle counts Pops; moveRequestCycle is its value at the
	// last MoveAllToActiveOrBackoffQueue. A pod that fails in a cycle that
	// started before a move request may have missed the event that would
	// have helped it, so it goes to backoffQ instead of unschedulablePods.
	schedulingCycle  int64
	moveRequestCycle int64
	seq              uint64
	// activeAdded is notified when activeQ gains a pod, to wake Pop,
	// which also selects on its ctx.
	activeAdded wait.Broadcast

	// wakeCh (capacity 1) tells Run that the earliest deadline may have
	// changed. A full wakeCh already says so, so poking never blocks.
	wakeCh chan struct{}
}

// inFlightPod is what the queue remembers of a pod in flight.
type inFlightPod struct {
	key string
	uid string
	// updated is set when an update that could change the pod's fit
	// arrived during its attempt.
	updated bool
}

// New returns an empty queue. Run must be running for pods to leave
// backoffQ and unschedulablePods on time.
func New(opts Options) *PriorityQueue {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.PodInitialBackoff <= 0 {
		opts.PodInitialBackoff = DefaultPodInitialBackoff
	}
	if opts.PodMaxBackoff <= 0 {
		opts.PodMaxBackoff = DefaultPodMaxBackoff
	}
	if opts.PodMaxInUnschedulablePodsDuration <= 0 {
		opts.PodMaxInUnschedulablePodsDuration = DefaultPodMaxInUnschedulablePodsDuration
	}
	q := &PriorityQueue{
		clock:             opts.Clock,
		backoff:           wait.Backoff{Initial: opts.PodInitialBackoff, Factor: 2, Cap: opts.PodMaxBackoff},
		maxInUnscheduled:  opts.PodMaxInUnschedulablePodsDuration,
		events:            opts.EventsToRegister,
		onChange:          opts.OnChange,
		activeQ:           newKeyedHeap(func(p *QueuedPodInfo) string { return podKey(p.Pod) }, activeQLess),
		unschedulablePods: map[string]*QueuedPodInfo{},
		inFlight:          map[*QueuedPodInfo]*inFlightPod{},
		wakeCh:            make(chan struct{}, 1),
	}
	q.backoffQ = newKeyedHeap(func(p *QueuedPodInfo) string { return podKey(p.Pod) }, func(a, b *QueuedPodInfo) bool {
		return q.backoffExpiry(a).Before(q.backoffExpiry(b))
	})
	return q
}

// Add queues a new pod in activeQ, replacing any entry it had anywhere in
// the queue.
func (q *PriorityQueue) Add(pod *corev1.Pod) {
	q.mu.Lock()
	key := podKey(pod)
	delete(q.unschedulablePods, key)
	q.backoffQ.Delete(key)
	q.addToActiveQLocked(q.newQueuedPodInfoLocked(pod))
	q.mu.Unlock()
	q.changed()
}

// Update replaces oldPod with newPod. A pod in activeQ or backoffQ stays
// where it is; a pod in unschedulablePods moves to activeQ (or backoffQ,
// if its backoff has not run out) when the update could change its fit
// (see isPodUpdated). A pod in flight is not queued twice: the update is
// noted, and should the attempt fail, the pod backs off instead of
// waiting for an event, since its cycle judged an older state. A pod that
// is nowhere (missed) is added to activeQ.
func (q *PriorityQueue) Update(oldPod, newPod *corev1.Pod) {
	q.mu.Lock()
	key := podKey(newPod)
	switch {
	case q.hasActiveLocked(key):
		pInfo, _ := q.activeQ.Get(key)
		pInfo.Pod = newPod
		q.activeQ.Add(pInfo) // its priority may have changed
	case q.hasBackoffLocked(key):
		pInfo, _ := q.backoffQ.Get(key)
		pInfo.Pod = newPod
	case q.unschedulablePods[key] != nil:
		pInfo := q.unschedulablePods[key]
		pInfo.Pod = newPod
		if isPodUpdated(oldPod, newPod) {
			delete(q.unschedulablePods, key)
			q.requeueLocked(pInfo)
		}
	default:
		if f := q.inFlightLocked(newPod); f != nil {
			f.updated = f.updated || isPodUpdated(oldPod, newPod)
			break
		}
		q.addToActiveQLocked(q.newQueuedPodInfoLocked(newPod))
	}
	q.mu.Unlock()
	q.wake()
	q.changed()
}

// inFlightLocked returns the attempt in flight for pod (same key and
// UID), if any. Few pods are in flight (one cycle, and the bindings the
// scheduler bounds), so a scan is cheap.
func (q *PriorityQueue) inFlightLocked(pod *corev1.Pod) *inFlightPod {
	key := podKey(pod)
	for _, f := range q.inFlight {
		if f.uid == string(pod.UID) && f.key == key {
			return f
		}
	}
	return nil
}

// Delete removes the pod from the queue, wherever it is. A pod in flight
// is not affected; its cycle finds it gone.
func (q *PriorityQueue) Delete(pod *corev1.Pod) {
	q.mu.Lock()
	key := podKey(pod)
	q.activeQ.Delete(key)
	q.backoffQ.Delete(key)
	delete(q.unschedulablePods, key)
	q.mu.Unlock()
	q.changed()
}

// Pop blocks until activeQ has a pod, removes the first one and returns
// it, counted in flight until Done. It returns ctx's error when ctx ends
// first. Only the scheduling loop pops.
func (q *PriorityQueue) Pop(ctx context.Context) (*QueuedPodInfo, error) {
	for {
		q.mu.Lock()
		if pInfo, ok := q.activeQ.Pop(); ok {
			q.schedulingCycle++
			pInfo.cycle = q.schedulingCycle
			pInfo.Attempts++
			if pInfo.InitialAttemptTimestamp.IsZero() {
				pInfo.InitialAttemptTimestamp = q.clock.Now()
			}
			q.inFlight[pInfo] = &inFlightPod{key: podKey(pInfo.Pod), uid: string(pInfo.Pod.UID)}
			q.mu.Unlock()
			return pInfo, nil
		}
		ch := q.activeAdded.Wait()
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-ch:
		}
	}
}

// Done ends the attempt of a popped pod: the scheduling cycle failed and
// the pod was requeued (or dropped), or its binding finished.
func (q *PriorityQueue) Done(pInfo *QueuedPodInfo) {
	q.mu.Lock()
	delete(q.inFlight, pInfo)
	q.mu.Unlock()
	q.changed()
}

// AddUnschedulableIfNotPresent puts back a popped pod whose attempt
// failed, unless the pod was queued again meanwhile (an error then). A pod
// that some plugins rejected goes to unschedulablePods to wait for an
// event; one that failed with an error (no UnschedulablePlugins), or whose
// cycle overlapped a move request or an update of the pod, goes to
// backoffQ. Either way its Timestamp restarts, so its backoff counts from
// now. The caller still calls Done.
//
// Upstream: PriorityQueue.AddUnschedulableIfNotPresent.
func (q *PriorityQueue) AddUnschedulableIfNotPresent(pInfo *QueuedPodInfo) error {
	q.mu.Lock()
	key := podKey(pInfo.Pod)
	if q.unschedulablePods[key] != nil || q.hasActiveLocked(key) || q.hasBackoffLocked(key) {
		q.mu.Unlock()
		return fmt.Errorf("pod %s is already queued", key)
	}
	pInfo.Timestamp = q.clock.Now()
	updated := q.inFlight[pInfo] != nil && q.inFlight[pInfo].updated
	if updated || q.moveRequestCycle >= pInfo.cycle || len(pInfo.UnschedulablePlugins) == 0 {
		q.backoffQ.Add(pInfo)
	} else {
		q.unschedulablePods[key] = pInfo
	}
	q.mu.Unlock()
	q.wake()
	q.changed()
	return nil
}

// MoveAllToActiveOrBackoffQueue moves the pods of unschedulablePods that
// event may help (see Options.EventsToRegister): to activeQ if their
// backoff has run out, else to backoffQ. It also records the move request
// for pods in flight.
//
// Upstream: PriorityQueue.MoveAllToActiveOrBackoffQueue, without the
// PreEnqueueCheck, which minicp's events have no use for.
func (q *PriorityQueue) MoveAllToActiveOrBackoffQueue(event ClusterEvent) {
	q.mu.Lock()
	q.moveAllLocked(event, time.Time{})
	q.moveRequestCycle = q.schedulingCycle
	q.mu.Unlock()
	q.wake()
	q.changed()
}

// moveAllLocked moves the matching pods; with a non-zero before, only
// those queued before it.
func (q *PriorityQueue) moveAllLocked(event ClusterEvent, before time.Time) {
	for key, pInfo := range q.unschedulablePods {
		if !before.IsZero() && !pInfo.Timestamp.Before(before) {
			continue
		}
		if !q.podMatchesEvent(pInfo, event) {
			continue
		}
		delete(q.unschedulablePods, key)
		q.requeueLocked(pInfo)
	}
}

// podMatchesEvent reports whether event may help pInfo: a wildcard event,
// a pod that failed without rejections, or a rejecting plugin that
// registered for the event (or registered nothing, so it takes all).
//
// Upstream: PriorityQueue.podMatchesEvent.
func (q *PriorityQueue) podMatchesEvent(pInfo *QueuedPodInfo, event ClusterEvent) bool {
	if event.IsWildCard() || len(pInfo.UnschedulablePlugins) == 0 {
		return true
	}
	for plugin := range pInfo.UnschedulablePlugins {
		registered, ok := q.events[plugin]
		if !ok {
			return true
		}
		for _, r := range registered {
			if event.Match(r) {
				return true
			}
		}
	}
	return false
}

// Idle reports whether the queue has no work that proceeds on its own: no
// pod in activeQ or in flight, and none whose backoff or wait in
// unschedulablePods has run out (Run is about to move those). Pods still
// backing off or waiting for an event do not count.
func (q *PriorityQueue) Idle() bool {
	now := q.clock.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.activeQ.Len() > 0 || len(q.inFlight) > 0 {
		return false
	}
	if pInfo, ok := q.backoffQ.Peek(); ok && !q.backoffExpiry(pInfo).After(now) {
		return false
	}
	for _, pInfo := range q.unschedulablePods {
		if !pInfo.Timestamp.Add(q.maxInUnscheduled).After(now) {
			return false
		}
	}
	return true
}

// Stats counts the pods in each part of the queue.
func (q *PriorityQueue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return Stats{Active: q.activeQ.Len(), Backoff: q.backoffQ.Len(),
		Unschedulable: len(q.unschedulablePods), InFlight: len(q.inFlight)}
}

// requeueLocked puts a pod that left unschedulablePods in backoffQ if it
// is still backing off, else in activeQ. The caller wakes Run once it
// has unlocked.
func (q *PriorityQueue) requeueLocked(pInfo *QueuedPodInfo) {
	if q.backoffExpiry(pInfo).After(q.clock.Now()) {
		q.backoffQ.Add(pInfo)
		return
	}
	q.addToActiveQLocked(pInfo)
}

func (q *PriorityQueue) newQueuedPodInfoLocked(pod *corev1.Pod) *QueuedPodInfo {
	q.seq++
	return &QueuedPodInfo{Pod: pod, Timestamp: q.clock.Now(), seq: q.seq}
}

// addToActiveQLocked adds pInfo to activeQ and wakes Pop.
func (q *PriorityQueue) addToActiveQLocked(pInfo *QueuedPodInfo) {
	q.activeQ.Add(pInfo)
	q.activeAdded.Notify()
}

func (q *PriorityQueue) hasActiveLocked(key string) bool {
	_, ok := q.activeQ.Get(key)
	return ok
}

func (q *PriorityQueue) hasBackoffLocked(key string) bool {
	_, ok := q.backoffQ.Get(key)
	return ok
}

// wake tells Run to recompute its deadline.
func (q *PriorityQueue) wake() {
	select {
	case q.wakeCh <- struct{}{}:
	default:
	}
}

func (q *PriorityQueue) changed() {
	if q.onChange != nil {
		q.onChange()
	}
}
