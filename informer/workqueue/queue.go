package workqueue

import (
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
)

// QueueOptions configures New. The zero QueueOptions works: a queue
// without metrics.
type QueueOptions struct {
	// Name names the queue in its metrics, e.g. the controller's name.
	Name string
	// Metrics records the queue's workqueue_* series under Name. Defaults
	// to nil: none.
	Metrics *Metrics
	// Clock times the queue and work durations of the metrics. Defaults
	// to clock.Real.
	Clock clock.Clock
}

// Queue is a work queue of comparable items (usually "namespace/name"
// keys). It is safe for concurrent use.
//
// Invariants, under mu:
//   - dirty holds every item that needs processing; processing holds every
//     item a worker has taken and not yet marked Done;
//   - queue holds exactly the items of dirty that are not in processing,
//     each once, in the order they became ready;
//   - so an item is never handed to two workers at once, and an item
//     added while processing is queued again by Done.
//
// Upstream: k8s.io/client-go/util/workqueue (Typed).
type Queue[T comparable] struct {
	// mu guards the fields below; cond (on mu) wakes Get and
	// ShutDownWithDrain.
	mu           sync.Mutex
	cond         *sync.Cond
	queue        []T
	dirty        map[T]struct{}
	processing   map[T]struct{}
	shuttingDown bool
	// drain is set while ShutDownWithDrain waits for processing to empty.
	drain bool
	// metrics is nil when the queue records none.
	metrics *queueMetrics[T]

	clock clock.Clock
}

// New returns an empty Queue.
func New[T comparable](opts QueueOptions) *Queue[T] {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	q := &Queue[T]{
		dirty:      map[T]struct{}{},
		processing: map[T]struct{}{},
		metrics:    forQueue[T](opts.Metrics, opts.Name),
		clock:      opts.Clock,
	}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// now is the clock's time when the queue records metrics; the zero time
// otherwise, so a queue without metrics never reads the clock.
func (q *Queue[T]) now() time.Time {
	if q.metrics == nil {
		return time.Time{}
	}
	return q.clock.Now()
}

// Add marks item as needing processing. It is a no-op if item is already
// waiting, and deferred until Done if item is being processed. After
// ShutDown it does nothing.
func (q *Queue[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		return
	}
	q.metrics.add(item, q.now())
	q.dirty[item] = struct{}{}
	if _, ok := q.processing[item]; ok {
		return // Done queues it
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
}

// Len returns how many items wait to be taken.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
}

// Get blocks until an item is ready and returns it; the caller must call
// Done with it when finished. After ShutDown, Get still returns the items
// left in the queue, then returns shutdown true at once.
func (q *Queue[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		return item, true
	}
	item = q.queue[0]
	var zero T
	q.queue[0] = zero // let the backing array forget it
	q.queue = q.queue[1:]
	q.processing[item] = struct{}{}
	delete(q.dirty, item)
	q.metrics.get(item, q.now())
	return item, false
}

// Done marks item as processed. If it was added again meanwhile, it is
// queued again now.
func (q *Queue[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.metrics.done(item, q.now())
	delete(q.processing, item)
	if _, ok := q.dirty[item]; ok {
		q.queue = append(q.queue, item)
		q.cond.Signal()
		return
	}
	if len(q.processing) == 0 && q.drain {
		// ShutDownWithDrain waits for this; Broadcast, because Signal
		// might wake a Get instead.
		q.cond.Broadcast()
	}
}

// ShutDown makes Add a no-op and Get return shutdown once the queue is
// empty. It does not wait for workers.
func (q *Queue[T]) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shuttingDown = true
	q.cond.Broadcast()
}

// ShutDownWithDrain is ShutDown, then blocks until every item being
// processed is Done. Items still queued are not waited for: workers may
// take them until Get reports shutdown. A worker must not call it, or it
// waits for itself.
func (q *Queue[T]) ShutDownWithDrain() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shuttingDown = true
	q.drain = true
	q.cond.Broadcast()
	for len(q.processing) > 0 {
		q.cond.Wait()
	}
	q.drain = false
}

// ShuttingDown reports whether ShutDown was called.
func (q *Queue[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}
