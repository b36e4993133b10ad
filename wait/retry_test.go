package wait_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/wait"
	"github.com/minicp/minicp/wait/waittest"
)

var (
	errRetriable = errors.New("retriable")
	errOther     = errors.New("other")
)

func isRetriable(err error) bool { return errors.Is(err, errRetriable) }

func TestOnError(t *testing.T) {
	tests := []struct {
		name      string
		steps     int
		errs      []error // what fn returns per call; nil after the end
		wantCalls int
		wantErr   error
	}{
		{name: "success at once", steps: 5, wantCalls: 1},
		{name: "two retriable errors then success", steps: 5, errs: []error{errRetriable, errRetriable}, wantCalls: 3},
		{name: "another error stops at once", steps: 5, errs: []error{errRetriable, errOther}, wantCalls: 2, wantErr: errOther},
		{name: "retries until the steps run out", steps: 3,
			errs: []error{errRetriable, errRetriable, errRetriable, errRetriable}, wantCalls: 3, wantErr: errRetriable},
		{name: "zero steps means one attempt", errs: []error{errRetriable}, wantCalls: 1, wantErr: errRetriable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktest.NewFake(time.Unix(0, 0))
			backoff := wait.Backoff{Steps: tc.steps, Initial: time.Second, Clock: clk}
			calledCh := make(chan struct{}, 10)
			calls := 0
			done := make(chan error, 1)
			go func() {
				done <- wait.OnError(t.Context(), backoff, isRetriable, func() error {
					calls++
					calledCh <- struct{}{}
					if calls <= len(tc.errs) {
						return tc.errs[calls-1]
					}
					return nil
				})
			}()
			ctx, cancel := waittest.Context(t)
			defer cancel()
			for i := 1; ; i++ {
				select {
				case <-calledCh:
				case <-ctx.Done():
					t.Fatalf("call %d never came", i)
				}
				if i == tc.wantCalls {
					break
				}
				// Between calls OnError waits on the fake clock.
				require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "wait before call %d", i+1)
				clk.Step(time.Second)
			}
			err := <-done
			assert.Equal(t, tc.wantCalls, calls)
			if tc.wantErr == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tc.wantErr)
			}
			assert.Zero(t, clk.Waiters(), "no wait after the last call")
		})
	}
}

// TestOnErrorWithoutDelayRetriesAtOnce is the API server's use: no
// Initial delay, so the attempts need no clock at all.
func TestOnErrorWithoutDelayRetriesAtOnce(t *testing.T) {
	calls := 0
	err := wait.OnError(t.Context(), wait.Backoff{Steps: 20}, isRetriable, func() error {
		calls++
		if calls < 20 {
			return errRetriable
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 20, calls)
}

func TestOnErrorStopsWithContext(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	backoff := wait.Backoff{Steps: 5, Initial: time.Second, Clock: clk}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- wait.OnError(ctx, backoff, isRetriable, func() error { return errRetriable }) }()
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	cancel()
	err := <-done
	assert.ErrorIs(t, err, errRetriable, "the last error is kept")
	assert.ErrorIs(t, err, context.Canceled)
}
