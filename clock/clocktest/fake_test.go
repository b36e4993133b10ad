package clocktest_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
)

var epoch = time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC)

// fired returns the value waiting on ch, if any, without blocking.
func fired(ch <-chan time.Time) (time.Time, bool) {
	select {
	case v := <-ch:
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestFakeNowAndSince(t *testing.T) {
	f := clocktest.NewFake(epoch)
	assert.Equal(t, epoch, f.Now())
	f.Step(90 * time.Second)
	assert.Equal(t, epoch.Add(90*time.Second), f.Now(), "Now after Step(90s)")
	assert.Equal(t, 90*time.Second, f.Since(epoch), "Since(epoch)")
}

func TestTimerFiresAtItsDeadline(t *testing.T) {
	f := clocktest.NewFake(epoch)
	deadlines := []time.Duration{3 * time.Second, time.Second, 2 * time.Second, 2 * time.Second}
	timers := make([]clock.Timer, len(deadlines))
	for i, d := range deadlines {
		timers[i] = f.NewTimer(d)
	}
	assert.Equal(t, len(deadlines), f.Waiters(), "Waiters after creating the timers")

	for step := 1; step <= 4; step++ {
		f.Step(time.Second)
		for i, d := range deadlines {
			v, ok := fired(timers[i].C())
			if time.Duration(step)*time.Second == d {
				require.True(t, ok, "timer %d (%v) at %ds", i, d, step)
				assert.Equal(t, epoch.Add(d), v, "value of timer %d (%v)", i, d)
			} else {
				assert.False(t, ok, "timer %d (%v) at %ds", i, d, step)
			}
		}
	}
	assert.Zero(t, f.Waiters(), "fired timers are no longer waiting")
	assert.False(t, f.HasWaiters())
}

func TestStepFiresEveryDueTimer(t *testing.T) {
	f := clocktest.NewFake(epoch)
	early, late, later := f.NewTimer(time.Second), f.NewTimer(5*time.Second), f.NewTimer(time.Minute)
	f.Step(10 * time.Second)
	_, ok := fired(early.C())
	assert.True(t, ok, "the 1s timer after Step(10s)")
	_, ok = fired(late.C())
	assert.True(t, ok, "the 5s timer after Step(10s)")
	_, ok = fired(later.C())
	assert.False(t, ok, "the 1m timer after Step(10s)")
	assert.Equal(t, 1, f.Waiters())
}

func TestZeroTimerFiresOnTheNextStep(t *testing.T) {
	f := clocktest.NewFake(epoch)
	timer := f.NewTimer(0)
	f.Step(0)
	_, ok := fired(timer.C())
	assert.True(t, ok, "NewTimer(0) after Step(0)")
}

func TestTimerStop(t *testing.T) {
	tests := []struct {
		name string
		// before runs between NewTimer(time.Second) and Stop.
		before   func(f *clocktest.Fake, timer clock.Timer)
		wantStop bool
	}{
		{name: "pending", before: func(*clocktest.Fake, clock.Timer) {}, wantStop: true},
		{name: "fired and received", before: func(f *clocktest.Fake, timer clock.Timer) {
			f.Step(time.Second)
			<-timer.C()
		}, wantStop: false},
		// As with time.Timer since Go 1.23: a timer whose value nobody
		// received is still stopped, and no stale value is left behind.
		{name: "fired, not received", before: func(f *clocktest.Fake, _ clock.Timer) {
			f.Step(time.Second)
		}, wantStop: true},
		{name: "already stopped", before: func(_ *clocktest.Fake, timer clock.Timer) {
			timer.Stop()
		}, wantStop: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := clocktest.NewFake(epoch)
			timer := f.NewTimer(time.Second)
			tc.before(f, timer)
			assert.Equal(t, tc.wantStop, timer.Stop(), "Stop() of a %s timer", tc.name)
			assert.Zero(t, f.Waiters(), "Waiters after Stop() of a %s timer", tc.name)
			f.Step(time.Hour)
			_, ok := fired(timer.C())
			assert.False(t, ok, "a %s timer fired after Stop()", tc.name)
		})
	}
}

func TestTimerReset(t *testing.T) {
	tests := []struct {
		name      string
		before    func(f *clocktest.Fake, timer clock.Timer)
		wantReset bool
	}{
		{name: "pending", before: func(*clocktest.Fake, clock.Timer) {}, wantReset: true},
		{name: "fired and received", before: func(f *clocktest.Fake, timer clock.Timer) {
			f.Step(time.Second)
			<-timer.C()
		}, wantReset: false},
		{name: "fired, not received", before: func(f *clocktest.Fake, _ clock.Timer) {
			f.Step(time.Second)
		}, wantReset: true},
		{name: "stopped", before: func(_ *clocktest.Fake, timer clock.Timer) {
			timer.Stop()
		}, wantReset: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := clocktest.NewFake(epoch)
			timer := f.NewTimer(time.Second)
			tc.before(f, timer)
			resetAt := f.Now()
			assert.Equal(t, tc.wantReset, timer.Reset(5*time.Second), "Reset() of a %s timer", tc.name)
			assert.Equal(t, 1, f.Waiters(), "Waiters after Reset() of a %s timer", tc.name)
			_, ok := fired(timer.C())
			assert.False(t, ok, "a %s timer has a stale value after Reset()", tc.name)

			// The new deadline counts from the time of Reset.
			f.Step(4 * time.Second)
			_, ok = fired(timer.C())
			assert.False(t, ok, "a %s timer fired 4s after Reset(5s)", tc.name)
			f.Step(time.Second)
			v, ok := fired(timer.C())
			require.True(t, ok, "a %s timer did not fire 5s after Reset(5s)", tc.name)
			assert.Equal(t, resetAt.Add(5*time.Second), v)
			assert.Zero(t, f.Waiters())
		})
	}
}

// TestTimerResetAt checks that ResetAt keeps the absolute deadline it is
// given however the clock moved since the caller read it, and fires at
// once for a deadline already passed.
func TestTimerResetAt(t *testing.T) {
	tests := []struct {
		name string
		// stepFirst moves the clock after the caller computed at (from
		// epoch) and before ResetAt: the gap Reset(d) cannot cover.
		stepFirst time.Duration
		at        time.Duration
		wantNow   bool
	}{
		{name: "future", at: 5 * time.Second},
		{name: "future, clock moved", stepFirst: 4 * time.Second, at: 5 * time.Second},
		{name: "now", at: 0, wantNow: true},
		{name: "passed while computing", stepFirst: 6 * time.Second, at: 5 * time.Second, wantNow: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := clocktest.NewFake(epoch)
			timer := f.NewTimer(time.Hour)
			f.Step(tc.stepFirst)
			assert.True(t, timer.ResetAt(epoch.Add(tc.at)), "the timer was pending")
			v, ok := fired(timer.C())
			if tc.wantNow {
				require.True(t, ok, "a deadline already passed fires at once")
				assert.Equal(t, f.Now(), v)
				assert.Zero(t, f.Waiters())
				return
			}
			require.False(t, ok, "fired before its deadline")
			f.SetTime(epoch.Add(tc.at - time.Nanosecond))
			_, ok = fired(timer.C())
			require.False(t, ok, "fired before its deadline")
			f.SetTime(epoch.Add(tc.at))
			v, ok = fired(timer.C())
			require.True(t, ok, "did not fire at its deadline")
			assert.Equal(t, epoch.Add(tc.at), v)
		})
	}
}

func TestTimerResetAtDropsStaleValue(t *testing.T) {
	f := clocktest.NewFake(epoch)
	timer := f.NewTimer(time.Second)
	f.Step(time.Second) // fired, not received
	assert.True(t, timer.ResetAt(f.Now().Add(time.Second)), "an unreceived value counts as pending")
	_, ok := fired(timer.C())
	assert.False(t, ok, "stale value after ResetAt")
}

func TestTicker(t *testing.T) {
	f := clocktest.NewFake(epoch)
	ticker := f.NewTicker(time.Second)

	_, ok := fired(ticker.C())
	assert.False(t, ok, "tick before any Step")
	f.Step(500 * time.Millisecond)
	_, ok = fired(ticker.C())
	assert.False(t, ok, "tick after 0.5s")
	f.Step(500 * time.Millisecond)
	v, ok := fired(ticker.C())
	require.True(t, ok, "tick after 1s")
	assert.Equal(t, epoch.Add(time.Second), v)

	// Several periods in one Step give one tick, as a real ticker drops
	// ticks for a slow reader; the next deadline stays on the grid.
	f.Step(5500 * time.Millisecond) // now 6.5s
	_, ok = fired(ticker.C())
	require.True(t, ok, "tick after a 5.5s step")
	_, ok = fired(ticker.C())
	assert.False(t, ok, "a second tick after one step")
	f.Step(500 * time.Millisecond) // now 7s
	_, ok = fired(ticker.C())
	assert.True(t, ok, "tick at 7s")

	// An unread tick is not queued behind another.
	f.Step(time.Second)
	f.Step(time.Second)
	_, ok = fired(ticker.C())
	assert.True(t, ok, "tick after two unread steps")
	_, ok = fired(ticker.C())
	assert.False(t, ok, "a second tick after two unread steps")

	assert.Equal(t, 1, f.Waiters(), "a ticker keeps waiting")
	ticker.Stop()
	assert.Zero(t, f.Waiters(), "Waiters after Stop")
	f.Step(time.Hour)
	_, ok = fired(ticker.C())
	assert.False(t, ok, "tick after Stop")
}

// As with time.Ticker since Go 1.23, no tick is received after Stop, even
// one that was due before it.
func TestTickerStopDropsUnreadTick(t *testing.T) {
	f := clocktest.NewFake(epoch)
	ticker := f.NewTicker(time.Second)
	f.Step(time.Second)
	ticker.Stop()
	_, ok := fired(ticker.C())
	assert.False(t, ok, "tick received after Stop")
}

func TestTickerRejectsNonPositivePeriod(t *testing.T) {
	f := clocktest.NewFake(epoch)
	for _, d := range []time.Duration{0, -time.Second} {
		assert.Panics(t, func() { f.NewTicker(d) }, "NewTicker(%v)", d)
	}
}

func TestSetTime(t *testing.T) {
	f := clocktest.NewFake(epoch)
	timer := f.NewTimer(time.Minute)

	f.SetTime(epoch.Add(-time.Hour))
	assert.Equal(t, epoch, f.Now(), "SetTime backwards is a no-op")
	f.SetTime(epoch)
	assert.Equal(t, epoch, f.Now(), "SetTime(now) is a no-op")
	_, ok := fired(timer.C())
	assert.False(t, ok, "timer fired by SetTime backwards")

	f.SetTime(epoch.Add(time.Minute))
	assert.Equal(t, epoch.Add(time.Minute), f.Now(), "SetTime forwards")
	_, ok = fired(timer.C())
	assert.True(t, ok, "timer after SetTime to its deadline")
}

func TestBlockUntilWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := clocktest.NewFake(epoch)
		errCh := make(chan error, 1)
		go func() { errCh <- f.BlockUntilWaiters(t.Context(), 2) }()

		synctest.Wait()
		select {
		case err := <-errCh:
			t.Fatalf("BlockUntilWaiters(2) returned %v with no waiters", err)
		default:
		}

		first := f.NewTimer(time.Second)
		synctest.Wait()
		select {
		case err := <-errCh:
			t.Fatalf("BlockUntilWaiters(2) returned %v with one waiter", err)
		default:
		}

		ticker := f.NewTicker(time.Second)
		synctest.Wait()
		select {
		case err := <-errCh:
			assert.NoError(t, err, "BlockUntilWaiters(2) with two waiters")
		default:
			t.Fatal("BlockUntilWaiters(2) still blocked with two waiters")
		}
		first.Stop()
		ticker.Stop()
	})
}

func TestBlockUntilWaitersAlreadySatisfied(t *testing.T) {
	f := clocktest.NewFake(epoch)
	timer := f.NewTimer(time.Second)
	defer timer.Stop()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	// Enough waiters wins over a done ctx: there is nothing to wait for.
	assert.NoError(t, f.BlockUntilWaiters(ctx, 1), "BlockUntilWaiters(1) with one waiter")
	assert.NoError(t, f.BlockUntilWaiters(ctx, 0), "BlockUntilWaiters(0)")
}

func TestBlockUntilWaitersHonoursCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := clocktest.NewFake(epoch)
		ctx, cancel := context.WithCancel(t.Context())
		errCh := make(chan error, 1)
		go func() { errCh <- f.BlockUntilWaiters(ctx, 1) }()
		synctest.Wait()
		cancel()
		assert.ErrorIs(t, <-errCh, context.Canceled, "BlockUntilWaiters after cancel")
	})
}

// A waiter that goes away (a timer that fires or is stopped) wakes
// BlockUntilWaiters too, which then keeps waiting.
func TestBlockUntilWaitersAfterWaitersLeave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := clocktest.NewFake(epoch)
		a := f.NewTimer(time.Second)
		errCh := make(chan error, 1)
		go func() { errCh <- f.BlockUntilWaiters(t.Context(), 2) }()
		synctest.Wait()
		f.Step(time.Second) // a fires and leaves
		synctest.Wait()
		b := f.NewTimer(time.Second)
		synctest.Wait()
		select {
		case err := <-errCh:
			t.Fatalf("BlockUntilWaiters(2) returned %v with one waiter", err)
		default:
		}
		c := f.NewTimer(time.Second)
		assert.NoError(t, <-errCh, "BlockUntilWaiters(2) with two waiters")
		a.Stop()
		b.Stop()
		c.Stop()
	})
}

func TestConcurrentUse(t *testing.T) {
	f := clocktest.NewFake(epoch)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			timer := f.NewTimer(time.Millisecond)
			timer.Reset(2 * time.Millisecond)
			timer.Stop()
		}
	}()
	for range 100 {
		f.Step(time.Millisecond)
		_ = f.Now()
	}
	<-done
}
