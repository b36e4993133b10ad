package wait_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/wait"
	"github.com/minicp/minicp/wait/waittest"
)

// runQueue runs q until the test ends, sending each due item on the
// returned channel.
func runQueue[T comparable](t *testing.T, q *wait.DeadlineQueue[T], clk *clocktest.Fake) <-chan T {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	dueCh := make(chan T, 100)
	var wg sync.WaitGroup
	wg.Go(func() {
		q.Run(ctx, func() {
			for {
				item, _, ok := q.PopDue(clk.Now())
				if !ok {
					return
				}
				dueCh <- item
			}
		})
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return dueCh
}

func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		require.FailNow(t, "nothing received", "within %v", waittest.Timeout)
	}
	var zero T
	return zero
}

// TestDeadlineQueueStepRightAfterAddFires is the "timer armed a step late"
// race: AddAt arms the timer before it returns, so a Step right after it
// fires the item with no other synchronisation.
func TestDeadlineQueueStepRightAfterAddFires(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[string]{Clock: clk})
	dueCh := runQueue(t, q, clk)
	for i := range 50 {
		q.AddAt("a", clk.Now().Add(time.Second))
		clk.Step(time.Second)
		assert.Equal(t, "a", receive(t, dueCh), "round %d", i)
	}
}

// steppingClock is a fake clock that, when primed, steps itself right
// after its next reading of the time: a test's Step landing between code
// reading the clock and acting on what it read.
type steppingClock struct {
	*clocktest.Fake
	step atomic.Int64 // the primed step, in nanoseconds
}

func (c *steppingClock) Now() time.Time {
	now := c.Fake.Now()
	if d := c.step.Swap(0); d != 0 {
		c.Fake.Step(time.Duration(d))
	}
	return now
}

// TestDeadlineQueueStepWhileArmingFires is the same race one step later:
// a step that lands while the queue arms its timer must not push the
// deadline late, as a duration computed from an earlier reading of the
// clock would (Reset(5s) after the clock moved to 4s fires at 9s).
func TestDeadlineQueueStepWhileArmingFires(t *testing.T) {
	clk := &steppingClock{Fake: clocktest.NewFake(time.Unix(0, 0))}
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[string]{Clock: clk})
	dueCh := runQueue(t, q, clk.Fake)
	q.AddAt("listening", time.Unix(0, 0))
	require.Equal(t, "listening", receive(t, dueCh), "Run is running")

	clk.step.Store(int64(4 * time.Second))
	q.AddAt("a", time.Unix(5, 0))
	clk.SetTime(time.Unix(5, 0))
	assert.Equal(t, "a", receive(t, dueCh))
}

func TestDeadlineQueueAddAlreadyDueRunsWithoutStep(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[string]{Clock: clk})
	dueCh := runQueue(t, q, clk)
	q.AddAt("now", clk.Now())
	assert.Equal(t, "now", receive(t, dueCh))
}

func TestDeadlineQueueOrder(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[string]{Clock: clk})
	defer q.Stop()
	t0 := clk.Now()
	q.AddAt("late", t0.Add(3*time.Second))
	q.AddAt("tie-1", t0.Add(2*time.Second))
	q.AddAt("tie-2", t0.Add(2*time.Second))
	q.AddAt("early", t0.Add(time.Second))
	q.AddAt("early", t0.Add(4*time.Second)) // AddAt keeps the earlier time
	q.SetAt("moved", t0.Add(time.Second))
	q.SetAt("moved", t0.Add(5*time.Second)) // SetAt moves it later
	q.AddAt("gone", t0)
	q.Remove("gone")
	assert.Equal(t, 5, q.Len())

	var got []string
	for {
		item, _, ok := q.PopDue(t0.Add(time.Hour))
		if !ok {
			break
		}
		got = append(got, item)
	}
	assert.Equal(t, []string{"early", "tie-1", "tie-2", "late", "moved"}, got, "each item once, earliest first")
}

func TestDeadlineQueueLessOrdersTies(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[int]{Clock: clk, Less: func(a, b int) bool { return a < b }})
	defer q.Stop()
	for _, i := range []int{3, 1, 2} {
		q.AddAt(i, clk.Now())
	}
	for want := 1; want <= 3; want++ {
		item, at, ok := q.PopDue(clk.Now())
		require.True(t, ok, "PopDue %d", want)
		assert.Equal(t, want, item)
		assert.Equal(t, clk.Now(), at, "the time it was due")
	}
}

func TestDeadlineQueueNotDueYet(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[string]{Clock: clk})
	defer q.Stop()
	assert.False(t, q.Due(), "empty")
	q.AddAt("a", clk.Now().Add(time.Second))
	_, _, ok := q.PopDue(clk.Now())
	assert.False(t, ok, "PopDue before the time")
	assert.False(t, q.Due())
	at, ok := q.Next()
	require.True(t, ok)
	assert.Equal(t, clk.Now().Add(time.Second), at)
	assert.Equal(t, 1, clk.Waiters(), "one timer for the queue")
	q.AddAt("b", clk.Now().Add(2*time.Second))
	assert.Equal(t, 1, clk.Waiters(), "still one timer")
	clk.Step(time.Second)
	assert.True(t, q.Due())
}

func TestDeadlineQueueRunStopsTheTimer(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := wait.NewDeadlineQueue(wait.DeadlineOptions[string]{Clock: clk})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	q.AddAt("a", clk.Now().Add(time.Second))
	q.Run(ctx, func() {})
	assert.Equal(t, 0, clk.Waiters(), "timer stopped")
	q.AddAt("b", clk.Now().Add(time.Second))
	assert.Equal(t, 0, clk.Waiters(), "no timer armed after Run returned")
}
