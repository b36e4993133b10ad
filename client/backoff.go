package client

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/minicp/minicp/clock"
)

// Backoff is minicp's one backoff helper: exponential, jittered and
// capped. The value is both the parameters and the state: Step advances
// it, and resetting is assigning the original value again. It is not safe
// for concurrent use; each loop keeps its own copy.
//
// Upstream: k8s.io/apimachinery/pkg/util/wait (Backoff).
type Backoff struct {
	// Duration is the next base delay.
	Duration time.Duration
	// Factor multiplies Duration after each step; 0 or 1 keeps it
	// constant.
	Factor float64
	// Jitter adds a random delay of up to Jitter*Duration to each step, so
	// clients that failed together do not retry together.
	Jitter float64
	// Steps is how many steps remain before Duration stops changing; for
	// RetryOnConflict, how many attempts are made in all.
	Steps int
	// Cap bounds Duration; reaching it ends the growth (Steps becomes 0).
	// Zero means no cap.
	Cap time.Duration
	// Clock times Wait. Defaults to clock.Real.
	Clock clock.Clock
}

// Step returns the next delay, jittered, and advances b.
func (b *Backoff) Step() time.Duration {
	if b.Steps < 1 {
		return jitter(b.Duration, b.Jitter)
	}
	b.Steps--
	d := b.Duration
	if b.Factor != 0 {
		b.Duration = time.Duration(float64(b.Duration) * b.Factor)
		if b.Cap > 0 && b.Duration > b.Cap {
			b.Duration = b.Cap
			b.Steps = 0
		}
	}
	return jitter(d, b.Jitter)
}

// Wait blocks for the next Step on b.Clock, or until ctx ends, which it
// returns as ctx.Err().
func (b *Backoff) Wait(ctx context.Context) error {
	clk := b.Clock
	if clk == nil {
		clk = clock.Real
	}
	timer := clk.NewTimer(b.Step())
	defer timer.Stop()
	select {
	case <-timer.C():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// jitter returns d plus a random duration in [0, factor*d).
func jitter(d time.Duration, factor float64) time.Duration {
	if factor <= 0 || d <= 0 {
		return d
	}
	return d + time.Duration(rand.Float64()*factor*float64(d))
}
