package client_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
)

var errConflict = apierrors.NewConflict(runtime.GroupResource{Resource: "pods"}, "p", errors.New("stale"))

func TestRetryOnConflict(t *testing.T) {
	other := errors.New("other")
	tests := []struct {
		name      string
		errs      []error // what fn returns per call; nil after the end
		wantCalls int
		wantErr   error
	}{
		{name: "success at once", wantCalls: 1},
		{name: "two conflicts then success", errs: []error{errConflict, errConflict}, wantCalls: 3},
		{name: "another error stops at once", errs: []error{other}, wantCalls: 1, wantErr: other},
		{name: "conflicts until the steps run out", errs: []error{errConflict, errConflict, errConflict, errConflict, errConflict, errConflict},
			wantCalls: client.DefaultRetry.Steps, wantErr: errConflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktest.NewFake(time.Unix(0, 0))
			backoff := client.DefaultRetry
			backoff.Clock = clk
			calledCh := make(chan struct{}, 10)
			calls := 0
			done := make(chan error, 1)
			go func() {
				done <- client.RetryOnConflict(t.Context(), backoff, func() error {
					calls++
					calledCh <- struct{}{}
					if calls <= len(tc.errs) {
						return tc.errs[calls-1]
					}
					return nil
				})
			}()
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
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
				// Between calls RetryOnConflict waits on the fake clock.
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
		})
	}
}

func TestRetryOnConflictStopsWithContext(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	backoff := client.DefaultRetry
	backoff.Clock = clk
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- client.RetryOnConflict(ctx, backoff, func() error { return errConflict }) }()
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	cancel()
	err := <-done
	assert.True(t, apierrors.IsConflict(err), "the last error is kept: %v", err)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestRetryOnConflictAgainstServer resolves a real lost update by re-reading.
func TestRetryOnConflictAgainstServer(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		pods := cs.Pods("default")
		stale := createPods(t, cs, "p", 1, map[string]string{"n": "0"})[0]
		_, err := pods.Patch(ctx, "p-0", client.MergePatchType, []byte(`{"metadata":{"labels":{"other":"writer"}}}`), client.WriteOptions{})
		require.NoError(t, err)

		attempts := 0
		err = client.RetryOnConflict(ctx, client.DefaultRetry, func() error {
			attempts++
			p := stale
			if attempts > 1 {
				var err error
				if p, err = pods.Get(ctx, "p-0", client.GetOptions{}); err != nil {
					return err
				}
			}
			p.Labels["n"] = "1"
			_, err := pods.Update(ctx, p, client.WriteOptions{})
			return err
		})
		require.NoError(t, err)
		assert.Equal(t, 2, attempts, "the stale write conflicts once")
		got, err := pods.Get(ctx, "p-0", client.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"n": "1", "other": "writer"}, got.Labels, "neither write is lost")
	})
}
