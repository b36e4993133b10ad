package clustertest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster/clustertest"
)

// recordingTB is a testing.TB whose errors and cleanups are recorded, not
// acted on, so a test can see what Start does with them.
type recordingTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// runCleanups runs the cleanups last first, as testing does.
func (r *recordingTB) runCleanups() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

// runnableFunc adapts a function to clustertest.Runnable.
type runnableFunc func(ctx context.Context) error

func (f runnableFunc) Start(ctx context.Context) error { return f(ctx) }

func TestStart(t *testing.T) {
	tests := []struct {
		name       string
		start      func(ctx context.Context) error
		wantErrors int
	}{
		{name: "returns nil once stopped", start: func(ctx context.Context) error { <-ctx.Done(); return nil }},
		{name: "returns the cancellation", start: func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }},
		{name: "fails while running", start: func(context.Context) error { return errors.New("boom") }, wantErrors: 1},
		{name: "fails when stopped", start: func(ctx context.Context) error { <-ctx.Done(); return errors.New("unclean") }, wantErrors: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			running := clustertest.Start(rec, runnableFunc(tc.start))
			require.Len(t, rec.cleanups, 1, "Start registers one cleanup")
			rec.runCleanups()
			clustertest.Receive(t, running.Done(), "return from Start")
			assert.Len(t, rec.errors, tc.wantErrors, "errors: %q", rec.errors)
			running.Stop() // again: it only waits, and reports nothing more
			assert.Len(t, rec.errors, tc.wantErrors, "errors after a second Stop: %q", rec.errors)
		})
	}
}

// TestStartOutlivesTestContext: the component keeps running after
// t.Context() ends, until its own cleanup, so cleanups registered after
// Start can still use it.
func TestStartOutlivesTestContext(t *testing.T) {
	var running *clustertest.Running
	t.Run("sub", func(t *testing.T) {
		running = clustertest.Start(t, runnableFunc(func(ctx context.Context) error {
			<-ctx.Done()
			return nil
		}))
		t.Cleanup(func() {
			select {
			case <-running.Done():
				t.Error("stopped before a cleanup registered after Start")
			default:
			}
		})
	})
	select {
	case <-running.Done():
	default:
		t.Fatal("still running after the test ended")
	}
}
