package informer_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/informer"
)

// TestResyncPerHandlerPeriod steps a fake clock and checks each handler
// is resynced at its own period, and only then.
func TestResyncPerHandlerPeriod(t *testing.T) {
	cs := inMemoryClientset(t)
	a := createPod(t, cs, "a", nil)
	b := createPod(t, cs, "b", nil)
	clk := clocktest.NewFake(time.Unix(1000, 0))
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{Clock: clk})
	every30, every60, never := newRecorder(), newRecorder(), newRecorder()
	for _, h := range []struct {
		r      *recorder
		period time.Duration
	}{{every30, 30 * time.Second}, {every60, time.Minute}, {never, 0}} {
		_, err := inf.AddEventHandler(h.r, informer.HandlerOptions{ResyncPeriod: &h.period})
		require.NoError(t, err)
	}
	run(t, inf)
	for _, r := range []*recorder{every30, every60, never} {
		assert.ElementsMatch(t, []string{"add a initial", "add b initial"}, r.nextN(t, 2))
	}
	syncs := []string{"sync a " + a.ResourceVersion, "sync b " + b.ResourceVersion}

	// t=30s: only the 30s handler is due.
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "the reflector waits for its resync timer")
	clk.Step(30 * time.Second)
	assert.ElementsMatch(t, syncs, every30.nextN(t, 2))

	// t=60s: both are due; the 60s handler for the first time.
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	clk.Step(30 * time.Second)
	assert.ElementsMatch(t, syncs, every30.nextN(t, 2))
	assert.ElementsMatch(t, syncs, every60.nextN(t, 2), "the 60s handler was not resynced at 30s")

	// A real change is delivered to all, after the resyncs.
	createPod(t, cs, "c", nil)
	for _, r := range []*recorder{every30, every60, never} {
		assert.Equal(t, "add c", r.next(t))
	}
	assert.True(t, never.empty(), "a handler without a period is never resynced")
}
