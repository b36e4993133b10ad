package controller

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/wait"
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
// so ready, processing and waiting are always seen together. The delays
// are a wait.DeadlineQueue, which arms its timer in the call that adds a
// Request, before the reconcile that asked for the delay is done: a test
// that waits for Idle and then steps a fake clock can never step between
// the two and leave the timer late.
//
// Upstream: k8s.io/client-go/util/workqueue (rateLimitingType,
// delayingType), which the controller-runtime loop uses as they are.
type queue struct {
	clock   clock.Clock
	limiter workqueue.RateLimiter[reconcile.Request]
	// name and metrics count retries; ready records the rest of the
	// workqueue_* metrics.
	name    string
	metrics *workqueue.Metrics
	// waiting holds the Requests whose delay has not passed; a Request is
	// in it at most once, at its earliest time. It is changed only under
	// mu (it has a lock of its own too), so it changes with the rest.
	waiting *wait.DeadlineQueue[reconcile.Request]
	// changed is notified at every change, under mu, so workers waiting
	// for a Request and WaitIdle can also select on their ctx.
	changed wait.Broadcast

	// mu guards every field below, and is held across each change to
	// ready, so the fields change together.
	mu sync.Mutex
	// ready holds the Requests to reconcile now. Invariant: ready.Get is
	// called only under mu and when ready.Len() > 0, so it never blocks.
	ready *workqueue.Queue[reconcile.Request]
	// processing counts the Requests taken by get and not yet done.
	processing int
	// running is set once the controller's sources have synced; a queue
	// that is not running yet is not idle.
	running bool
	// shuttingDown is set by shutDown: Adds are dropped and get returns.
	shuttingDown bool
	// causes holds, per Request waiting in ready, what enqueued it (at
	// most maxCauses of each kind), for the reconcile's span; delayed
	// holds the same for the Requests in waiting. Both are kept only
	// when recordCauses is set.
	causes       map[reconcile.Request]causes
	delayed      map[reconcile.Request]causes
	recordCauses bool
}

// causes are what enqueued a Request: the revisions of the changes whose
// events did, and the reconciles that requeued it (after an error or a
// RequeueAfter), so a reconcile that runs because time passed is still
// linked to the one that decided to wait.
type causes struct {
	revs      []int64
	reconcile []trace.SpanContext
}

// merge adds o's causes to c's, up to maxCauses of each kind.
func (c causes) merge(o causes) causes {
	c.revs = append(c.revs, o.revs[:min(len(o.revs), max(maxCauses-len(c.revs), 0))]...)
	c.reconcile = append(c.reconcile, o.reconcile[:min(len(o.reconcile), max(maxCauses-len(c.reconcile), 0))]...)
	return c
}

var _ handler.Queue = (*queue)(nil)

// newQueue returns the queue of the controller called name; its metrics
// go to m, when not nil.
func newQueue(name string, clk clock.Clock, limiter workqueue.RateLimiter[reconcile.Request], m *workqueue.Metrics, recordCauses bool) *queue {
	return &queue{
		causes:       map[reconcile.Request]causes{},
		delayed:      map[reconcile.Request]causes{},
		recordCauses: recordCauses,
		clock:        clk,
		limiter:      limiter,
		name:         name,
		metrics:      m,
		ready:        workqueue.New[reconcile.Request](workqueue.QueueOptions{Name: name, Metrics: m, Clock: clk}),
		waiting:      wait.NewDeadlineQueue(wait.DeadlineOptions[reconcile.Request]{Clock: clk}),
	}
}

// notifyLocked wakes everyone waiting for a change.
func (q *queue) notifyLocked() { q.changed.Notify() }

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

// maxCauses bounds the causes kept per Request: a Request that a burst of
// changes enqueued is reconciled once, and its span needs a few links,
// not one per change.
const maxCauses = 8

// AddCausedBy is Add for a Request enqueued by the change an object's
// revision rev records (the source's optional causeQueue capability):
// the reconcile's span links to the write of rev when it was traced.
func (q *queue) AddCausedBy(req reconcile.Request, rev int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if q.recordCauses && rev > 0 {
		q.causes[req] = q.causes[req].merge(causes{revs: []int64{rev}})
	}
	q.ready.Add(req)
	q.notifyLocked()
}

// get takes the next ready Request, waiting for one, with the causes
// recorded for it; it returns false once the queue shuts down or ctx
// ends. The caller must call done.
func (q *queue) get(ctx context.Context) (reconcile.Request, causes, bool) {
	q.mu.Lock()
	for {
		if q.shuttingDown {
			q.mu.Unlock()
			return reconcile.Request{}, causes{}, false
		}
		if q.ready.Len() > 0 {
			req, _ := q.ready.Get() // does not block: see ready
			// No notify: taking a Request makes nothing idle, and the
			// other workers recheck ready before they wait.
			q.processing++
			causes := q.causes[req]
			delete(q.causes, req)
			q.mu.Unlock()
			return req, causes, true
		}
		ch := q.changed.Wait()
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return reconcile.Request{}, causes{}, false
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
// delay, for requeueAfter); by is the span of the reconcile that asked,
// which the next reconcile of a requeued req links to when it is valid.
// A Request added while it was reconciled is ready again at once.
func (q *queue) done(req reconcile.Request, r requeue, delay time.Duration, by trace.SpanContext) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var c causes
	if q.recordCauses && by.IsValid() {
		c.reconcile = []trace.SpanContext{by}
	}
	switch r {
	case requeueNone:
		q.limiter.Forget(req)
	case requeueRateLimited:
		q.addAfterLocked(req, q.limiter.When(req), c)
	case requeueAfter:
		q.limiter.Forget(req)
		q.addAfterLocked(req, delay, c)
	}
	q.ready.Done(req)
	q.processing--
	q.notifyLocked()
}

// addAfterLocked adds req, caused by c, once d has passed on the clock;
// d <= 0 adds it now. A Request already waiting keeps the earlier of its
// two times, and both causes.
func (q *queue) addAfterLocked(req reconcile.Request, d time.Duration, c causes) {
	if q.shuttingDown {
		return
	}
	// Every requeue counts, as upstream's AddAfter counts it.
	q.metrics.Retry(q.name)
	if d <= 0 {
		q.addCausesLocked(q.causes, req, c)
		q.ready.Add(req)
		return
	}
	q.addCausesLocked(q.delayed, req, c)
	q.waiting.AddAt(req, q.clock.Now().Add(d))
}

// addCausesLocked adds c to req's causes in m, when there are any.
func (q *queue) addCausesLocked(m map[reconcile.Request]causes, req reconcile.Request, c causes) {
	if len(c.revs) > 0 || len(c.reconcile) > 0 {
		m[req] = m[req].merge(c)
	}
}

// runDelays moves Requests whose delay has passed into ready whenever
// one is due, until ctx ends; then it stops the timer.
//
// Upstream: k8s.io/client-go/util/workqueue (delayingType.waitingLoop).
func (q *queue) runDelays(ctx context.Context) {
	q.waiting.Run(ctx, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		now := q.clock.Now()
		moved := false
		for {
			req, _, ok := q.waiting.PopDue(now)
			if !ok {
				break
			}
			if !q.shuttingDown {
				q.addCausesLocked(q.causes, req, q.delayed[req])
				delete(q.delayed, req)
				q.ready.Add(req)
				moved = true
			}
		}
		if moved {
			q.notifyLocked()
		}
	})
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
	q.waiting.Stop()
	q.notifyLocked()
}

// idle reports whether the queue has no work: running, nothing ready,
// nothing being reconciled and no delay due; or shut down with nothing in
// flight. changed is closed at the queue's next change.
func (q *queue) idle() (idle bool, changed <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	changed = q.changed.Wait()
	if q.shuttingDown {
		return q.processing == 0, changed
	}
	return q.running && q.ready.Len() == 0 && q.processing == 0 && !q.waiting.Due(), changed
}
