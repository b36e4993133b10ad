package watchcache

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/minicp/minicp/clock"
)

// The reflector's relist backoff, Kubernetes' (client-go Reflector and the
// Cacher's own): "We used to make the call every 1sec (1 QPS), the goal
// here is to achieve ~98% traffic reduction when API server is not
// healthy. With these parameters, backoff will stop at [30,60) sec
// interval which is 0.22 QPS. If we don't backoff for 2min, assume API
// server is healthy and we reset the backoff."
const (
	// relistBackoffInitial is the first wait: long enough that a flapping
	// etcd is not hammered, short enough that one lost watch costs a
	// client under a second of waiting.
	relistBackoffInitial = 800 * time.Millisecond
	// relistBackoffMax caps the wait (before jitter) at 30s.
	relistBackoffMax = 30 * time.Second
	// relistBackoffReset: a watch that stayed up this long was healthy, and
	// the next failure starts from relistBackoffInitial again.
	relistBackoffReset = 2 * time.Minute
)

// backoff is a jittered, capped, resettable exponential backoff: each wait
// is a random duration in [d, 2d), and d doubles up to its cap. Not safe
// for concurrent use; the reflector goroutine owns it.
//
// Upstream: k8s.io/apimachinery/pkg/util/wait (NewExponentialBackoffManager
// with factor 2 and jitter 1.0).
type backoff struct {
	initial, max, reset time.Duration
	// next is the base of the next wait; 0 means initial.
	next time.Duration
}

// delay returns how long to wait before the next attempt, given how long
// the last attempt ran before it failed.
func (b *backoff) delay(ranFor time.Duration) time.Duration {
	if b.next == 0 || ranFor >= b.reset {
		b.next = b.initial
	}
	d := b.next
	b.next = min(2*b.next, b.max)
	// Jitter 1.0 spreads the relists of many caches (every resource of every
	// API server) over [d, 2d) instead of letting them hit etcd at once.
	return d + rand.N(d)
}

// sleep waits d on c, or until ctx is done; it reports whether the whole
// wait passed.
func sleep(ctx context.Context, c clock.Clock, d time.Duration) bool {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}
