package workqueue

import (
	"context"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// DelayingOptions configures NewDelaying.
type DelayingOptions struct {
	// Clock times AddAfter and the metrics. Defaults to clock.Real.
	Clock clock.Clock
	// Name and Metrics are the QueueOptions': every AddAfter also counts
	// as a retry.
	Name    string
	Metrics *Metrics
}

// DelayingQueue is a Queue with AddAfter. A goroutine owned by the queue
// moves items whose delay has passed into the Queue; ShutDown and
// ShutDownWithDrain stop it (dropping items still waiting) and wait for
// it. Safe for concurrent use.
//
// Upstream: k8s.io/client-go/util/workqueue (delayingType).
type DelayingQueue[T comparable] struct {
	*Queue[T]
	clock   clock.Clock
	name    string
	metrics *Metrics
	// waiting holds the items not ready yet, each once, at its earliest
	// requested time.
	waiting *wait.DeadlineQueue[T]
	// cancel ends the goroutine that moves ready items; wg waits for it.
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewDelaying returns an empty DelayingQueue and starts its goroutine;
// ShutDown stops it.
func NewDelaying[T comparable](opts DelayingOptions) *DelayingQueue[T] {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	// The queue has no ctx of its own (see the package doc): ShutDown
	// cancels this one.
	ctx, cancel := context.WithCancel(context.Background())
	q := &DelayingQueue[T]{
		Queue:   New[T](QueueOptions{Name: opts.Name, Metrics: opts.Metrics, Clock: opts.Clock}),
		clock:   opts.Clock,
		name:    opts.Name,
		metrics: opts.Metrics,
		waiting: wait.NewDeadlineQueue(wait.DeadlineOptions[T]{Clock: opts.Clock}),
		cancel:  cancel,
	}
	q.wg.Go(func() { q.waiting.Run(ctx, q.addReady) })
	return q
}

// AddAfter adds item once d has passed on the clock; d <= 0 adds it now.
// An item already waiting keeps the earlier of its two times. After
// ShutDown it does nothing. It counts as a retry in the metrics, as
// upstream's does.
func (q *DelayingQueue[T]) AddAfter(item T, d time.Duration) {
	if q.ShuttingDown() {
		return
	}
	q.metrics.Retry(q.name)
	if d <= 0 {
		q.Add(item)
		return
	}
	q.waiting.AddAt(item, q.clock.Now().Add(d))
}

// ShutDown stops the queue (see Queue.ShutDown) and the delay goroutine.
func (q *DelayingQueue[T]) ShutDown() {
	q.stop()
	q.Queue.ShutDown()
}

// ShutDownWithDrain stops the delay goroutine and drains the queue (see
// Queue.ShutDownWithDrain).
func (q *DelayingQueue[T]) ShutDownWithDrain() {
	q.stop()
	q.Queue.ShutDownWithDrain()
}

func (q *DelayingQueue[T]) stop() {
	q.cancel()
	q.wg.Wait()
}

// addReady moves the items whose delay has passed into the queue.
//
// Upstream: k8s.io/client-go/util/workqueue (delayingType.waitingLoop).
func (q *DelayingQueue[T]) addReady() {
	now := q.clock.Now()
	for {
		item, _, ok := q.waiting.PopDue(now)
		if !ok {
			return
		}
		q.Add(item)
	}
}
