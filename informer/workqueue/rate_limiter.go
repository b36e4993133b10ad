package workqueue

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// RateLimiter says how long an item must wait before it is retried.
// Implementations are safe for concurrent use.
//
// Upstream: k8s.io/client-go/util/workqueue (TypedRateLimiter).
type RateLimiter[T comparable] interface {
	// When records a retry of item and returns how long it must wait.
	When(item T) time.Duration
	// Forget clears item's history: it succeeded.
	Forget(item T)
	// NumRequeues returns how many retries of item are recorded.
	NumRequeues(item T) int
}

// ItemExponentialFailureRateLimiter waits base*2^n before an item's n-th
// retry, up to max: a failing item backs off on its own, without slowing
// the others.
//
// Upstream: k8s.io/client-go/util/workqueue (TypedItemExponentialFailureRateLimiter).
type ItemExponentialFailureRateLimiter[T comparable] struct {
	backoff wait.Backoff

	// mu guards failures.
	mu       sync.Mutex
	failures map[T]int
}

// NewItemExponentialFailureRateLimiter returns a limiter from base to max.
func NewItemExponentialFailureRateLimiter[T comparable](base, max time.Duration) *ItemExponentialFailureRateLimiter[T] {
	return &ItemExponentialFailureRateLimiter[T]{
		backoff:  wait.Backoff{Initial: base, Factor: 2, Cap: max},
		failures: map[T]int{},
	}
}

// When implements RateLimiter.
func (r *ItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.failures[item]
	r.failures[item]++
	return r.backoff.Delay(n)
}

// Forget implements RateLimiter.
func (r *ItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// NumRequeues implements RateLimiter.
func (r *ItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

// BucketRateLimiter is a token bucket shared by all items: qps retries a
// second overall, in bursts of up to burst. It keeps no per-item history.
//
// Upstream: k8s.io/client-go/util/workqueue (TypedBucketRateLimiter).
type BucketRateLimiter[T comparable] struct {
	limiter *rate.Limiter
	clock   clock.Clock
}

// NewBucketRateLimiter returns a bucket of qps tokens a second, burst
// deep, timed by clk (clock.Real if nil).
func NewBucketRateLimiter[T comparable](qps float64, burst int, clk clock.Clock) *BucketRateLimiter[T] {
	if clk == nil {
		clk = clock.Real
	}
	return &BucketRateLimiter[T]{limiter: rate.NewLimiter(rate.Limit(qps), burst), clock: clk}
}

// When implements RateLimiter: it takes a token now, or reserves the
// next one and returns the wait for it.
func (r *BucketRateLimiter[T]) When(T) time.Duration {
	now := r.clock.Now()
	return r.limiter.ReserveN(now, 1).DelayFrom(now)
}

// Forget implements RateLimiter; a bucket has no per-item history.
func (r *BucketRateLimiter[T]) Forget(T) {}

// NumRequeues implements RateLimiter; a bucket has no per-item history.
func (r *BucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// MaxOfRateLimiter waits the longest of its limiters' waits.
//
// Upstream: k8s.io/client-go/util/workqueue (TypedMaxOfRateLimiter).
type MaxOfRateLimiter[T comparable] struct {
	limiters []RateLimiter[T]
}

// NewMaxOfRateLimiter combines limiters.
func NewMaxOfRateLimiter[T comparable](limiters ...RateLimiter[T]) *MaxOfRateLimiter[T] {
	return &MaxOfRateLimiter[T]{limiters: limiters}
}

// When implements RateLimiter: every limiter records the retry.
func (r *MaxOfRateLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

// Forget implements RateLimiter.
func (r *MaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// NumRequeues implements RateLimiter: the most any limiter counts.
func (r *MaxOfRateLimiter[T]) NumRequeues(item T) int {
	n := 0
	for _, l := range r.limiters {
		n = max(n, l.NumRequeues(item))
	}
	return n
}

// The defaults of DefaultControllerRateLimiter, client-go's.
const (
	// defaultItemBaseDelay is the first retry's wait: short, because most
	// failures are a conflict or a cache a moment behind.
	defaultItemBaseDelay = 5 * time.Millisecond
	// defaultItemMaxDelay caps one item's wait at about 17 minutes: an
	// item failing for that long needs a human, and still gets retried.
	defaultItemMaxDelay = 1000 * time.Second
	// defaultOverallQPS and defaultOverallBurst bound all retries
	// together, so many items failing at once (the API server is down)
	// do not hammer the server: 10 a second after a burst of 100.
	defaultOverallQPS   = 10
	defaultOverallBurst = 100
)

// DefaultControllerRateLimiter is the limiter controllers use: per-item
// exponential backoff from 5ms to 1000s, and an overall bucket of 10 qps
// with a burst of 100, whichever waits longer. clk times the bucket
// (clock.Real if nil).
//
// Upstream: k8s.io/client-go/util/workqueue (DefaultTypedControllerRateLimiter).
func DefaultControllerRateLimiter[T comparable](clk clock.Clock) RateLimiter[T] {
	return NewMaxOfRateLimiter(
		NewItemExponentialFailureRateLimiter[T](defaultItemBaseDelay, defaultItemMaxDelay),
		NewBucketRateLimiter[T](defaultOverallQPS, defaultOverallBurst, clk),
	)
}
