package wait_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/wait"
)

func TestBackoffDelay(t *testing.T) {
	tests := []struct {
		name string
		b    wait.Backoff
		n    int
		want time.Duration
	}{
		{name: "first", b: wait.Backoff{Initial: time.Second, Factor: 2}, n: 0, want: time.Second},
		{name: "doubles", b: wait.Backoff{Initial: time.Second, Factor: 2}, n: 3, want: 8 * time.Second},
		{name: "capped", b: wait.Backoff{Initial: time.Second, Factor: 2, Cap: 5 * time.Second}, n: 3, want: 5 * time.Second},
		{name: "constant without factor", b: wait.Backoff{Initial: time.Second}, n: 7, want: time.Second},
		{name: "no overflow", b: wait.Backoff{Initial: time.Millisecond, Factor: 2, Cap: time.Hour}, n: 10_000, want: time.Hour},
		{name: "no overflow uncapped", b: wait.Backoff{Initial: time.Millisecond, Factor: 2}, n: 10_000, want: 1<<63 - 1},
		{name: "negative n is the first", b: wait.Backoff{Initial: time.Second, Factor: 2}, n: -1, want: time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.b.Delay(tc.n), "Delay(%d)", tc.n)
		})
	}
}

func TestBackoffStepJitterStaysInRange(t *testing.T) {
	b := wait.Backoff{Initial: 100 * time.Millisecond, Factor: 2, Jitter: 1, Cap: 400 * time.Millisecond}
	for i, base := range []time.Duration{100, 200, 400, 400} {
		base *= time.Millisecond
		d := b.Step()
		assert.GreaterOrEqual(t, d, base, "step %d", i)
		assert.Less(t, d, 2*base, "step %d", i)
	}
	assert.Equal(t, 4, b.Taken())
	b.Forget()
	assert.Equal(t, 0, b.Taken())
	assert.GreaterOrEqual(t, b.Step(), 100*time.Millisecond, "after Forget")
}

func TestBackoffResetAfterQuietPeriod(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	b := wait.Backoff{Initial: time.Second, Factor: 2, Reset: time.Minute, Clock: clk}
	assert.Equal(t, time.Second, b.Step())
	assert.Equal(t, 2*time.Second, b.Step())
	clk.Step(59 * time.Second)
	assert.Equal(t, 4*time.Second, b.Step(), "59s after the last step")
	clk.Step(time.Minute)
	assert.Equal(t, time.Second, b.Step(), "a minute after the last step")
}

func TestBackoffWaitFollowsTheClock(t *testing.T) {
	ctx := t.Context()
	clk := clocktest.NewFake(time.Unix(0, 0))
	b := wait.Backoff{Initial: time.Second, Clock: clk}
	errCh := make(chan error, 1)
	go func() { errCh <- b.Wait(ctx) }()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "BlockUntilWaiters")
	clk.Step(time.Second)
	require.NoError(t, <-errCh, "Wait")
	assert.Equal(t, 0, clk.Waiters(), "Wait stops its timer")
}

func TestBackoffWaitEndsWithCtx(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	b := wait.Backoff{Initial: time.Hour, Clock: clocktest.NewFake(time.Unix(0, 0))}
	require.ErrorIs(t, b.Wait(ctx), context.Canceled)
}
