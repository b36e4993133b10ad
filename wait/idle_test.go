package wait_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/wait"
)

// fakeIdler is an Idler with a work counter; finishing its work may hand
// work to a next fakeIdler, as a controller hands pods to the scheduler.
type fakeIdler struct {
	changed wait.Broadcast
	mu      sync.Mutex
	work    int
	next    *fakeIdler
}

func (f *fakeIdler) Idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.work == 0
}

func (f *fakeIdler) IdleChanged() <-chan struct{} { return f.changed.Wait() }

func (f *fakeIdler) add(n int) {
	f.mu.Lock()
	f.work += n
	f.mu.Unlock()
	f.changed.Notify()
}

// finish does one unit of work, handing one to next.
func (f *fakeIdler) finish() {
	if f.next != nil {
		f.next.add(1)
	}
	f.add(-1)
}

func TestWaitIdleAllIdle(t *testing.T) {
	require.NoError(t, wait.WaitIdle(t.Context(), &fakeIdler{}, &fakeIdler{}))
	require.NoError(t, wait.WaitIdle(t.Context()), "no idlers")
}

// TestWaitIdleFixedPoint: the last idler hands work back to the first, so
// a round that found the first idle before the last finished is not
// enough; WaitIdle returns only after a whole round finds all idle.
func TestWaitIdleFixedPoint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b, c := &fakeIdler{}, &fakeIdler{}, &fakeIdler{}
		a.next, b.next = b, c
		a.add(1)
		c.add(1)
		done := make(chan error, 1)
		go func() { done <- wait.WaitIdle(t.Context(), a, b, c) }()

		synctest.Wait()
		a.finish() // a -> b
		synctest.Wait()
		b.finish() // b -> c
		synctest.Wait()
		c.next = a
		c.finish() // c -> a: a is busy again
		synctest.Wait()
		select {
		case err := <-done:
			require.FailNow(t, "WaitIdle returned while a is busy", "err: %v", err)
		default:
		}
		assert.False(t, a.Idle())
		a.next, c.next = nil, nil
		a.finish()
		c.finish()
		require.NoError(t, <-done)
		assert.True(t, a.Idle() && b.Idle() && c.Idle())
	})
}

func TestWaitIdleEndsWithCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		busy := &fakeIdler{}
		busy.add(1)
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		err := wait.WaitIdle(ctx, &fakeIdler{}, busy)
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
}
