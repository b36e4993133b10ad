package controller

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer/workqueue"
)

// queue is a controller's work queue: a workqueue.Queue for folding and
// ordering Requests and for never handing one Request to two workers, a
// workqueue.RateLimiter for backoff, and a delay heap, all under one lock.
//
// Why not workqueue.RateLimitingQueue as it is: Idle must tell "nothing
// queued, nothing being reconciled, nothing due" exactly, and that queue
// hides two moments from its owner. A worker's Get dequeues a key before
// the worker can count it as in flight, and the delay goroutine adds due
// keys on its own. Here get dequeues under mu (only when a key is ready,
// so Get never blocks), and the delays are moved by runDelays under mu,
// so ready, processing and waiting are always seen together.
//
// Upstream: k8s.io/client-go/util/workqueue (rateLimitingType,
// delayingType), which the controller-runtime loop uses as they are.
type queue struct {
	clock   clock.Clock
	limiter workqueue.RateLimiter[reconcile.Request]
	// timerChangedCh (capacity 1) tells runDelays that timer was replaced;
	// a full channel already says so.
	timerChangedCh chan struct{}

	// mu guards every field below, and is held across each change to
	// ready, so the fields change together.
	mu sync.Mutex
	// ready holds the Requests to reconcile now. Invariant: ready.Get is
	// called only under mu and when ready.Len() > 0, so it never blocks.
	ready *workqueue.Queue[reconcile.Request]
	// waiting holds the Requests whose delay has not passed; a Request is
	// in it at most once, at its earliest time.
	waiting delayHeap
	// processing counts the Requests taken by get and not yet done.
	processing int
	// running is set once the controller's sources have synced; a queue
	// that is not running yet is not idle.
	running bool
	// shuttingDown is set by shutDown: Adds are dropped and get returns.
	shuttingDown bool
	// changedCh is closed and replaced at every change, so workers
	// waiting for a Request and WaitIdle can also select on their ctx.
	changedCh chan struct{}
	// timer fires when waiting's earliest entry is due, at timerAt; nil
	// when waiting is empty. It is armed in the same critical section that
	// adds the entry (see armTimerLocked).
	timer   clock.Timer
	timerAt time.Time
}

var _ handler.Queue = (*queue)(nil)

func newQueue(clk clock.Clock, limiter workqueue.RateLimiter[reconcile.Request]) *queue {
	return &queue{
		clock:          clk,
		limiter:        limiter,
		ready:          workqueue.New[reconcile.Request](),
		waiting:        delayHeap{index: map[reconcile.Request]int{}},
		changedCh:      make(chan struct{}),
		timerChangedCh: make(chan struct{}, 1),
	}
}

// notifyLocked wakes everyone waiting for a change.
func (q *queue) notifyLocked() {
	close(q.changedCh)
	q.changedCh = make(chan struct{})
}

// Add implements handler.Queue: req is reconciled as soon as a worker is
// free, once however often it is added meanwhile, and again after the
// current reconcile if it is being reconciled. After shutDown it does
// nothing.
func (q *queue) Add(req reconcile.Request) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	q.ready.Add(req)
	q.notifyLocked()
}

// get takes the next ready Request, waiting for one; it returns false
// once the queue shuts down or ctx ends. The caller must call done.
func (q *queue) get(ctx context.Context) (reconcile.Request, bool) {
	q.mu.Lock()
	for {
		if q.shuttingDown {
			q.mu.Unlock()
			return reconcile.Request{}, false
		}
		if q.ready.Len() > 0 {
			req, _ := q.ready.Get() // does not block: see ready
			// No notify: taking a Request makes nothing idle, and the
			// other workers recheck ready before they wait.
			q.processing++
			q.mu.Unlock()
			return req, true
		}
		ch := q.changedCh
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return reconcile.Request{}, false
		case <-ch:
		}
		q.mu.Lock()
	}
}

// requeue says what done does with a Request after its reconcile.
type requeue int

const (
	// requeueNone forgets the Request's backoff: it succeeded, or failed
	// for good.
	requeueNone requeue = iota
	// requeueRateLimited adds it back after the rate limiter's backoff.
	requeueRateLimited
	// requeueAfter forgets its backoff and adds it back after a delay.
	requeueAfter
)

// done finishes req, taken by get, and requeues it as r says (after
// delay, for requeueAfter). A Request added while it was reconciled is
// ready again at once.
func (q *queue) done(req reconcile.Request, r requeue, delay time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch r {
	case requeueNone:
		q.limiter.Forget(req)
	case requeueRateLimited:
		q.addAfterLocked(req, q.limiter.When(req))
	case requeueAfter:
		q.limiter.Forget(req)
		q.addAfterLocked(req, delay)
	}
	q.ready.Done(req)
	q.processing--
	q.notifyLocked()
}

// addAfterLocked adds req once d has passed on the clock; d <= 0 adds it
// now. A Request already waiting keeps the earlier of its two times.
func (q *queue) addAfterLocked(req reconcile.Request, d time.Duration) {
	if q.shuttingDown {
		return
	}
	if d <= 0 {
		q.ready.Add(req)
		return
	}
	q.waiting.addOrEarlier(req, q.clock.Now().Add(d))
	q.armTimerLocked()
}

// armTimerLocked makes timer fire when waiting's earliest entry is due.
//
// Why here, under mu, and not in runDelays: the deadline must be computed
// from the same reading of the clock as the entry's time. Armed by the
// caller that adds the entry, the timer exists before the reconcile that
// asked for the delay is done, so a test that waits for Idle and then
// steps a fake clock can never step between the two and leave the timer
// late.
func (q *queue) armTimerLocked() {
	if q.waiting.Len() == 0 {
		q.stopTimerLocked()
		return
	}
	at := q.waiting.peek().readyAt
	if q.timer != nil && q.timerAt.Equal(at) {
		return
	}
	q.stopTimerLocked()
	q.timer, q.timerAt = q.clock.NewTimer(at.Sub(q.clock.Now())), at
	select {
	case q.timerChangedCh <- struct{}{}:
	default: // runDelays is already due to look
	}
}

func (q *queue) stopTimerLocked() {
	if q.timer != nil {
		q.timer.Stop()
		q.timer = nil
	}
}

// runDelays moves Requests whose delay has passed into ready whenever the
// timer fires, until ctx ends; then it stops the timer.
//
// Upstream: k8s.io/client-go/util/workqueue (delayingType.waitingLoop).
func (q *queue) runDelays(ctx context.Context) {
	for {
		q.mu.Lock()
		now := q.clock.Now()
		moved := false
		for q.waiting.Len() > 0 && !q.waiting.peek().readyAt.After(now) {
			e := heap.Pop(&q.waiting).(delayEntry)
			if !q.shuttingDown {
				q.ready.Add(e.req)
				moved = true
			}
		}
		q.armTimerLocked()
		var timerC <-chan time.Time
		if q.timer != nil {
			timerC = q.timer.C()
		}
		if moved {
			q.notifyLocked()
		}
		q.mu.Unlock()

		select {
		case <-ctx.Done():
			q.mu.Lock()
			q.stopTimerLocked()
			q.mu.Unlock()
			return
		case <-q.timerChangedCh:
		case <-timerC:
		}
	}
}

// setRunning marks the queue as fed: the controller's sources have synced.
func (q *queue) setRunning() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.running = true
	q.notifyLocked()
}

// shutDown drops every Request not yet taken and makes get return; the
// reconciles in flight finish and call done.
func (q *queue) shutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shuttingDown = true
	q.stopTimerLocked()
	q.notifyLocked()
}

// idle reports whether the queue has no work: running, nothing ready,
// nothing being reconciled and no delay due; or shut down with nothing in
// flight. changed is closed at the queue's next change.
func (q *queue) idle() (idle bool, changed <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return q.processing == 0, q.changedCh
	}
	due := q.waiting.Len() > 0 && !q.waiting.peek().readyAt.After(q.clock.Now())
	return q.running && q.ready.Len() == 0 && q.processing == 0 && !due, q.changedCh
}

// delayEntry is a Request and when it is due.
type delayEntry struct {
	req     reconcile.Request
	readyAt time.Time
}

// delayHeap is a min-heap of delayEntry by readyAt, with an index to find
// a Request's entry.
type delayHeap struct {
	entries []delayEntry
	index   map[reconcile.Request]int
}

// Len, Less, Swap, Push and Pop implement heap.Interface; use
// addOrEarlier to add.
func (h *delayHeap) Len() int           { return len(h.entries) }
func (h *delayHeap) Less(i, j int) bool { return h.entries[i].readyAt.Before(h.entries[j].readyAt) }
func (h *delayHeap) Swap(i, j int) {
	h.entries[i], h.entries[j] = h.entries[j], h.entries[i]
	h.index[h.entries[i].req] = i
	h.index[h.entries[j].req] = j
}

func (h *delayHeap) Push(x any) {
	e := x.(delayEntry)
	h.index[e.req] = len(h.entries)
	h.entries = append(h.entries, e)
}

func (h *delayHeap) Pop() any {
	n := len(h.entries) - 1
	e := h.entries[n]
	h.entries = h.entries[:n]
	delete(h.index, e.req)
	return e
}

func (h *delayHeap) peek() delayEntry { return h.entries[0] }

// addOrEarlier adds req at readyAt, or moves it earlier if it waits for a
// later time.
func (h *delayHeap) addOrEarlier(req reconcile.Request, readyAt time.Time) {
	if i, ok := h.index[req]; ok {
		if readyAt.Before(h.entries[i].readyAt) {
			h.entries[i].readyAt = readyAt
			heap.Fix(h, i)
		}
		return
	}
	heap.Push(h, delayEntry{req: req, readyAt: readyAt})
}
