package watchcache

import (
	"time"

	"github.com/minicp/minicp/clock"
)

// timeBudget is the time the dispatcher may spend waiting for watchers
// whose input is full before it closes them. It refills continuously at
// half its maximum per second, so a burst of slow watchers costs at most
// the maximum, and a watcher that is slow all the time cannot keep
// everyone else waiting for more than half of every second. Take what is
// there with takeAvailable and give back what was not spent with
// returnUnused.
//
// It is used only by the dispatcher goroutine and is not safe for
// concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (timeBudget): maxBudget
// 100ms, refreshPerSecond 50ms.
type timeBudget struct {
	clock     clock.Clock
	maxBudget time.Duration
	// budget is what was available at last.
	budget time.Duration
	last   time.Time
}

func newTimeBudget(c clock.Clock, maxBudget time.Duration) *timeBudget {
	return &timeBudget{clock: c, maxBudget: maxBudget, budget: maxBudget, last: c.Now()}
}

// refill adds what accrued since the last call: maxBudget/2 per second.
func (b *timeBudget) refill() {
	now := b.clock.Now()
	elapsed := now.Sub(b.last)
	b.last = now
	if elapsed <= 0 {
		return
	}
	b.budget = min(b.maxBudget, b.budget+time.Duration(float64(elapsed)*float64(b.maxBudget/2)/float64(time.Second)))
}

// takeAvailable returns the whole available budget, leaving none.
func (b *timeBudget) takeAvailable() time.Duration {
	b.refill()
	d := b.budget
	b.budget = 0
	return d
}

// returnUnused gives back the part of a taken budget that was not spent.
func (b *timeBudget) returnUnused(unused time.Duration) {
	b.refill()
	if unused > 0 {
		b.budget = min(b.maxBudget, b.budget+unused)
	}
}
