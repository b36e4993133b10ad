package clustertest

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// Runnable is a long-running component: Start blocks until ctx is done
// and every goroutine the component started has returned. The scheduler,
// a kubelet, a Manager, an informer factory, a watch cache and a cluster
// all are.
type Runnable interface {
	Start(ctx context.Context) error
}

// Start runs r in a goroutine until t ends (or Stop), and waits for it in
// t's cleanup; it does not wait for r to be ready (use r's Ready or
// WaitReady for that). It fails t if Start returns an error that is not
// the cancellation of its context.
//
// r runs under t.Context()'s values but not its cancellation, which comes
// before the cleanups run: cleanups registered after Start (stopping what
// depends on r, deleting what a test made) still have r running. It stops
// in its own cleanup, which runs after theirs, so components started one
// after another stop in reverse order, as cluster stops them.
func Start(t testing.TB, r Runnable) *Running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	run := &Running{t: t, r: r, cancel: cancel, doneCh: make(chan struct{})}
	go func() {
		defer close(run.doneCh)
		run.err = r.Start(ctx)
	}()
	t.Cleanup(run.Stop)
	return run
}

// Running is a component Start runs for a test.
type Running struct {
	t      testing.TB
	r      Runnable
	cancel context.CancelFunc
	// doneCh is closed once r's Start has returned; err is written
	// before.
	doneCh chan struct{}
	err    error
	once   sync.Once
}

// Done returns a channel closed once the component's Start has returned:
// select on it beside the component's readiness to fail at once when it
// cannot start.
func (r *Running) Done() <-chan struct{} { return r.doneCh }

// Stop cancels the component's context and blocks until its Start has
// returned, failing the test if that returned an error other than the
// cancellation. It is for a test that stops a component before it ends;
// calls after the first (and the cleanup's) only wait.
func (r *Running) Stop() {
	r.once.Do(func() {
		r.cancel()
		<-r.doneCh
		if r.err != nil && !errors.Is(r.err, context.Canceled) {
			r.t.Errorf("clustertest: %T stopped with: %v", r.r, r.err)
		}
	})
}
