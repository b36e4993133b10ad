package client_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

var errConflict = apierrors.NewConflict(runtime.GroupResource{Resource: "pods"}, "p", errors.New("stale"))

// TestRetryOnConflict checks what RetryOnConflict adds to wait.OnError
// (whose tests cover the loop): a conflict is retried, nothing else is.
func TestRetryOnConflict(t *testing.T) {
	other := errors.New("other")
	tests := []struct {
		name      string
		errs      []error // what fn returns per call; nil after the end
		wantCalls int
		wantErr   error
	}{
		{name: "a conflict is retried", errs: []error{errConflict}, wantCalls: 2},
		{name: "another error is not", errs: []error{other}, wantCalls: 1, wantErr: other},
		{name: "a wrapped conflict is retried", errs: []error{fmt.Errorf("update: %w", errConflict)}, wantCalls: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// No delay: the retry needs no clock.
			backoff := wait.Backoff{Steps: client.DefaultRetry.Steps}
			calls := 0
			err := client.RetryOnConflict(t.Context(), backoff, func() error {
				calls++
				if calls <= len(tc.errs) {
					return tc.errs[calls-1]
				}
				return nil
			})
			assert.Equal(t, tc.wantCalls, calls)
			if tc.wantErr == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tc.wantErr)
			}
		})
	}
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
