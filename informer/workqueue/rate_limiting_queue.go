package workqueue

import "github.com/minicp/minicp/clock"

// RateLimitingOptions configures NewRateLimiting.
type RateLimitingOptions[T comparable] struct {
	// RateLimiter defaults to DefaultControllerRateLimiter on Clock.
	RateLimiter RateLimiter[T]
	// Clock times delays. Defaults to clock.Real.
	Clock clock.Clock
	// Name and Metrics are the QueueOptions'.
	Name    string
	Metrics *Metrics
}

// RateLimitingQueue is a DelayingQueue whose retries wait as a
// RateLimiter says: the queue a controller uses. A worker that fails calls
// AddRateLimited; one that succeeds calls Forget. Safe for concurrent use.
//
// Upstream: k8s.io/client-go/util/workqueue (rateLimitingType).
type RateLimitingQueue[T comparable] struct {
	*DelayingQueue[T]
	rateLimiter RateLimiter[T]
}

// NewRateLimiting returns an empty RateLimitingQueue and starts its delay
// goroutine; ShutDown stops it.
func NewRateLimiting[T comparable](opts RateLimitingOptions[T]) *RateLimitingQueue[T] {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.RateLimiter == nil {
		opts.RateLimiter = DefaultControllerRateLimiter[T](opts.Clock)
	}
	return &RateLimitingQueue[T]{
		DelayingQueue: NewDelaying[T](DelayingOptions{Clock: opts.Clock, Name: opts.Name, Metrics: opts.Metrics}),
		rateLimiter:   opts.RateLimiter,
	}
}

// AddRateLimited adds item after the wait the rate limiter gives it.
func (q *RateLimitingQueue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.rateLimiter.When(item))
}

// Forget clears item's retry history: call it when item succeeded. It does
// not remove item from the queue.
func (q *RateLimitingQueue[T]) Forget(item T) { q.rateLimiter.Forget(item) }

// NumRequeues returns how many times item was rate-limited since the last
// Forget.
func (q *RateLimitingQueue[T]) NumRequeues(item T) int { return q.rateLimiter.NumRequeues(item) }
