package wait

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/minicp/minicp/clock"
)

// Backoff is minicp's one backoff: the n-th delay is Initial*Factor^n,
// capped at Cap, plus up to Jitter times itself at random. The value holds
// both the parameters and the state: Step advances it, Forget starts it
// over, and a fresh copy of a parameter value starts from the beginning.
// It is not safe for concurrent use; each loop (or each key) keeps its
// own copy.
//
// Upstream: k8s.io/apimachinery/pkg/util/wait (Backoff).
type Backoff struct {
	// Initial is the first delay.
	Initial time.Duration
	// Factor multiplies the delay after each step; 0 or 1 keeps it
	// constant.
	Factor float64
	// Jitter adds a random delay of up to Jitter times the delay to each
	// Step, so clients that failed together do not retry together.
	Jitter float64
	// Cap bounds the delay before jitter; zero means no bound.
	Cap time.Duration
	// Reset starts the backoff over at Step when the last Step was at
	// least Reset ago on Clock: a loop that went that long without failing
	// was healthy, and its next failure is a new incident. Zero means
	// never.
	Reset time.Duration
	// Steps is how many attempts a retry loop makes in all (see
	// client.RetryOnConflict); Step itself ignores it. Zero means one.
	Steps int
	// Clock measures Reset and times Wait. Defaults to clock.Real.
	Clock clock.Clock

	// taken is how many Steps were taken since the last start-over, and
	// lastStep when the last one was.
	taken    int
	lastStep time.Time
}

// Delay returns the n-th delay (from 0) without jitter: Initial*Factor^n,
// capped at Cap. It does not change b, so a caller that keeps its own
// failure count (per key, or in an object's status) needs no state here.
func (b Backoff) Delay(n int) time.Duration {
	f := b.Factor
	if f == 0 {
		f = 1
	}
	// Compute in float64: Factor^n overflows int64 long before a failure
	// count does.
	d := float64(b.Initial) * math.Pow(f, float64(max(n, 0)))
	if b.Cap > 0 && d > float64(b.Cap) {
		return b.Cap
	}
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}

// Step returns the next delay, jittered, and advances b. It first starts
// over if the last Step was at least Reset ago.
func (b *Backoff) Step() time.Duration {
	if b.Reset > 0 && b.taken > 0 && b.clock().Since(b.lastStep) >= b.Reset {
		b.taken = 0
	}
	d := b.Delay(b.taken)
	b.taken++
	if b.Reset > 0 {
		b.lastStep = b.clock().Now()
	}
	return jitter(d, b.Jitter)
}

// Taken returns how many Steps were taken since b started (or started
// over): the number of failures it has seen.
func (b *Backoff) Taken() int { return b.taken }

// Forget starts b over: the next Step returns Initial again. Call it after
// a success.
func (b *Backoff) Forget() { b.taken = 0 }

// Wait blocks for the next Step on b.Clock, or until ctx ends, which it
// returns as ctx.Err().
func (b *Backoff) Wait(ctx context.Context) error {
	return Sleep(ctx, b.clock(), b.Step())
}

func (b *Backoff) clock() clock.Clock {
	if b.Clock == nil {
		return clock.Real
	}
	return b.Clock
}

// Sleep blocks for d on clk, or until ctx ends, which it returns as
// ctx.Err(). It stops its timer either way. A d <= 0 returns at once
// (ctx.Err() if ctx has ended): a fake clock would otherwise fire a timer
// for now only at its next step, and a retry without delay would hang.
func Sleep(ctx context.Context, clk clock.Clock, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
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
