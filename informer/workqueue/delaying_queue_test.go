package workqueue_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/wait/waittest"
)

// getWithin returns the next item, failing the test if none comes.
func getWithin[T comparable](t *testing.T, q interface{ Get() (T, bool) }) T {
	t.Helper()
	ch := make(chan T, 1)
	go func() {
		item, _ := q.Get()
		ch <- item
	}()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	select {
	case item := <-ch:
		return item
	case <-ctx.Done():
		t.Fatal("no item within", waittest.Timeout)
		panic("unreachable")
	}
}

func TestAddAfter(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := workqueue.NewDelaying[string](workqueue.DelayingOptions{Clock: clk})
	defer q.ShutDown()

	q.AddAfter("now", 0)
	assert.Equal(t, 1, q.Len(), "a zero delay adds at once")
	assert.Equal(t, "now", getWithin[string](t, q))
	q.Done("now")

	q.AddAfter("later", 5*time.Second)
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "the queue waits on the clock")
	assert.Equal(t, 0, q.Len(), "not ready before its time")
	clk.Step(4 * time.Second)
	assert.Equal(t, 0, q.Len(), "not ready one second early")
	clk.Step(time.Second)
	assert.Equal(t, "later", getWithin[string](t, q))
}

func TestAddAfterKeepsTheEarlierTime(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := workqueue.NewDelaying[string](workqueue.DelayingOptions{Clock: clk})
	defer q.ShutDown()

	q.AddAfter("a", 10*time.Second)
	q.AddAfter("a", 2*time.Second) // earlier: wins
	q.AddAfter("a", 20*time.Second)
	q.AddAfter("b", 3*time.Second)
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	clk.Step(3 * time.Second)
	assert.Equal(t, "a", getWithin[string](t, q), "a is ready at 2s")
	assert.Equal(t, "b", getWithin[string](t, q), "b is ready at 3s")
	q.Done("a")
	q.Done("b")
	assert.Equal(t, 0, q.Len(), "a waits only once")
}

func TestDelayingShutDownDropsWaitingItems(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := workqueue.NewDelaying[string](workqueue.DelayingOptions{Clock: clk})
	q.AddAfter("a", time.Hour)
	q.ShutDownWithDrain()
	_, shutdown := q.Get()
	assert.True(t, shutdown)
	q.AddAfter("b", 0)
	assert.Equal(t, 0, q.Len(), "no adds after shutdown")
}
