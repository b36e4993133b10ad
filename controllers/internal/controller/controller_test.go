package controller

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
	"github.com/minicp/minicp/wait/waittest"
)

func request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: name}}
}

// recorder is a Reconciler that counts calls per Request and answers with
// answer(call number from 1, Request).
type recorder struct {
	answer func(n int, req reconcile.Request) (reconcile.Result, error)

	mu    sync.Mutex
	calls map[reconcile.Request]int
}

func newRecorder(answer func(n int, req reconcile.Request) (reconcile.Result, error)) *recorder {
	if answer == nil {
		answer = func(int, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }
	}
	return &recorder{answer: answer, calls: map[reconcile.Request]int{}}
}

func (r *recorder) Reconcile(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
	r.mu.Lock()
	r.calls[req]++
	n := r.calls[req]
	r.mu.Unlock()
	return r.answer(n, req)
}

func (r *recorder) count(req reconcile.Request) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[req]
}

type testController struct {
	*Controller
	clock   *clocktest.Fake
	limiter workqueue.RateLimiter[reconcile.Request]
}

// newTestController returns a controller on a fake clock with the default
// rate limiter: 5ms, 10ms, 20ms... per Request.
func newTestController(t *testing.T, r reconcile.Reconciler, mutate ...func(*Options)) *testController {
	t.Helper()
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	limiter := workqueue.DefaultControllerRateLimiter[reconcile.Request](clk)
	opts := Options{Name: "test", Reconciler: r, MaxConcurrentReconciles: 1, RateLimiter: limiter, Clock: clk}
	for _, m := range mutate {
		m(&opts)
	}
	c, err := New(opts)
	require.NoError(t, err, "New")
	return &testController{Controller: c, clock: clk, limiter: limiter}
}

// start runs c until the test ends and waits until it is running.
func (c *testController) start(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	errCh := make(chan error, 1)
	go func() { errCh <- c.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-errCh, "the controller stops cleanly")
	})
	c.waitIdle(t)
}

// waitIdle waits, without polling, until c is idle.
func (c *testController) waitIdle(t *testing.T) {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	if err := wait.WaitIdle(ctx, c); err != nil {
		t.Fatalf("controller not idle within %v", waittest.Timeout)
	}
}

// step moves the clock and waits for the work that falls due.
func (c *testController) step(t *testing.T, d time.Duration) {
	t.Helper()
	c.clock.Step(d)
	c.waitIdle(t)
}

func TestErrorsBackOffExponentially(t *testing.T) {
	web := request("web")
	r := newRecorder(func(n int, _ reconcile.Request) (reconcile.Result, error) {
		if n <= 3 {
			return reconcile.Result{}, fmt.Errorf("attempt %d failed", n)
		}
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r)
	c.start(t)

	c.queue.Add(web)
	c.waitIdle(t)
	require.Equal(t, 1, r.count(web), "reconciled once at once")

	// The retries wait 5ms, then 10ms, then 20ms: the default per-item
	// exponential backoff.
	for _, wait := range []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
		calls := r.count(web)
		c.step(t, wait-time.Millisecond)
		assert.Equal(t, calls, r.count(web), "not retried before %v", wait)
		c.step(t, time.Millisecond)
		assert.Equal(t, calls+1, r.count(web), "retried after %v", wait)
	}
	assert.Zero(t, c.limiter.NumRequeues(web), "success forgets the backoff")
	c.step(t, time.Hour)
	assert.Equal(t, 4, r.count(web), "nothing more after success")
}

func TestTerminalErrorIsNotRetried(t *testing.T) {
	web := request("web")
	r := newRecorder(func(int, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, reconcile.TerminalError(errors.New("spec is invalid"))
	})
	c := newTestController(t, r)
	c.start(t)

	c.queue.Add(web)
	c.waitIdle(t)
	c.step(t, time.Hour)
	assert.Equal(t, 1, r.count(web), "a terminal error is not retried")
	assert.Zero(t, c.limiter.NumRequeues(web), "and leaves no backoff behind")

	c.queue.Add(web)
	c.waitIdle(t)
	assert.Equal(t, 2, r.count(web), "the next event reconciles again")
}

func TestRequeueAfterIsHonoured(t *testing.T) {
	web := request("web")
	r := newRecorder(func(n int, _ reconcile.Request) (reconcile.Result, error) {
		if n == 1 {
			return reconcile.Result{RequeueAfter: 30 * time.Second}, nil
		}
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r)
	c.start(t)

	c.queue.Add(web)
	c.waitIdle(t)
	c.step(t, 29*time.Second)
	assert.Equal(t, 1, r.count(web), "not before RequeueAfter")
	c.step(t, time.Second)
	assert.Equal(t, 2, r.count(web), "at RequeueAfter")
	c.step(t, time.Hour)
	assert.Equal(t, 2, r.count(web), "once")
}

func TestRequeueAfterResetsBackoff(t *testing.T) {
	web := request("web")
	r := newRecorder(func(n int, _ reconcile.Request) (reconcile.Result, error) {
		switch n {
		case 1, 2:
			return reconcile.Result{}, errors.New("failed")
		case 3:
			return reconcile.Result{RequeueAfter: time.Minute}, nil
		}
		return reconcile.Result{}, errors.New("failed again")
	})
	c := newTestController(t, r)
	c.start(t)

	c.queue.Add(web)
	c.waitIdle(t)
	c.step(t, 5*time.Millisecond)
	c.step(t, 10*time.Millisecond)
	require.Equal(t, 3, r.count(web))
	c.step(t, time.Minute)
	require.Equal(t, 4, r.count(web))
	c.step(t, 5*time.Millisecond)
	assert.Equal(t, 5, r.count(web), "the backoff starts over at 5ms after RequeueAfter")
}

func TestRequeueUsesTheRateLimiter(t *testing.T) {
	web := request("web")
	r := newRecorder(func(n int, _ reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{Requeue: n < 3}, nil
	})
	c := newTestController(t, r)
	c.start(t)

	c.queue.Add(web)
	c.waitIdle(t)
	c.step(t, 4*time.Millisecond)
	assert.Equal(t, 1, r.count(web), "Requeue waits the backoff")
	c.step(t, time.Millisecond)
	assert.Equal(t, 2, r.count(web))
	c.step(t, 10*time.Millisecond)
	assert.Equal(t, 3, r.count(web))
	c.step(t, time.Hour)
	assert.Equal(t, 3, r.count(web), "Result{} ends it")
}

func TestPanicIsRecoveredAndRetried(t *testing.T) {
	web := request("web")
	r := newRecorder(func(n int, _ reconcile.Request) (reconcile.Result, error) {
		if n == 1 {
			panic("nil map")
		}
		return reconcile.Result{}, nil
	})
	var logs bytes.Buffer
	c := newTestController(t, r, func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
	})
	c.start(t)

	c.queue.Add(web)
	c.waitIdle(t)
	c.step(t, 5*time.Millisecond)
	assert.Equal(t, 2, r.count(web), "a panic is an error: retried with backoff")
	assert.Contains(t, logs.String(), "panic: nil map [recovered]")
	assert.Contains(t, logs.String(), "stack=", "the stack is logged")
}

// syncWriter serializes writes from concurrent loggers.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestReconcileLoggerInContext(t *testing.T) {
	var logs bytes.Buffer
	r := reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
		logging.FromContext(ctx).Info("hello from reconcile")
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r, func(o *Options) {
		o.Name = "labeler"
		o.Logger = slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	c.start(t)
	c.queue.Add(request("web"))
	c.waitIdle(t)

	var hello, hop string
	for line := range strings.SplitSeq(logs.String(), "\n") {
		switch {
		case strings.Contains(line, "hello from reconcile"):
			hello = line
		case strings.Contains(line, "hop=reconcile"):
			hop = line
		}
	}
	for _, want := range []string{"controller=labeler", "namespace=default", "name=web", "reconcileID="} {
		assert.Contains(t, hello, want, "the reconciler's logger is scoped to the Request")
		assert.Contains(t, hop, want, "the reconcile hop is traced at Debug")
	}
}

func TestMaxConcurrentReconciles(t *testing.T) {
	const workers = 3
	var inFlight, maxInFlight atomic.Int32
	startedCh := make(chan struct{}, 10)
	releaseCh := make(chan struct{})
	r := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		startedCh <- struct{}{}
		<-releaseCh
		inFlight.Add(-1)
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r, func(o *Options) { o.MaxConcurrentReconciles = workers })
	c.start(t)

	for i := range 5 {
		c.queue.Add(request(fmt.Sprint("pod-", i)))
	}
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for range workers {
		select {
		case <-startedCh:
		case <-ctx.Done():
			t.Fatalf("%d reconciles did not run in parallel", workers)
		}
	}
	idle := c.Idle()
	assert.False(t, idle, "busy while reconciling")
	close(releaseCh)
	c.waitIdle(t)
	assert.Equal(t, int32(workers), maxInFlight.Load(), "MaxConcurrentReconciles reconciles at once, no more")
	assert.Len(t, startedCh, 5-workers, "the rest ran after")
}

// TestOneRequestIsNeverReconciledConcurrently adds a few keys from many
// goroutines while many workers reconcile them (run it with -race), and
// checks the two promises a Reconciler relies on: one Request is never
// reconciled by two workers at once, and every Request's last reconcile
// started after its last Add.
func TestOneRequestIsNeverReconciledConcurrently(t *testing.T) {
	const (
		producers   = 4
		workers     = 8
		keys        = 20
		addsPerProd = 500
	)
	var (
		seq       atomic.Int64
		mu        sync.Mutex
		inFlight  = map[reconcile.Request]bool{}
		lastAdd   = map[reconcile.Request]int64{}
		lastStart = map[reconcile.Request]int64{}
		overlaps  atomic.Int64
	)
	r := reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		mu.Lock()
		if inFlight[req] {
			overlaps.Add(1)
		}
		inFlight[req] = true
		lastStart[req] = seq.Add(1)
		mu.Unlock()
		mu.Lock()
		inFlight[req] = false
		mu.Unlock()
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r, func(o *Options) { o.MaxConcurrentReconciles = workers })
	c.start(t)

	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range addsPerProd {
				req := request(fmt.Sprint("pod-", (p*addsPerProd+i)%keys))
				mu.Lock()
				lastAdd[req] = seq.Add(1)
				mu.Unlock()
				c.queue.Add(req)
			}
		})
	}
	wg.Wait()
	c.waitIdle(t)
	assert.Zero(t, overlaps.Load(), "no Request reconciled by two workers at once")
	mu.Lock()
	defer mu.Unlock()
	for req, added := range lastAdd {
		assert.Greater(t, lastStart[req], added, "%s reconciled after its last Add", req)
	}
}

func TestIdle(t *testing.T) {
	releaseCh := make(chan struct{})
	r := newRecorder(func(n int, req reconcile.Request) (reconcile.Result, error) {
		if req.Name == "slow" {
			<-releaseCh
		}
		if req.Name == "later" && n == 1 {
			return reconcile.Result{RequeueAfter: time.Minute}, nil
		}
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r)
	idle := c.Idle()
	assert.False(t, idle, "not idle before it runs")
	c.start(t)

	c.queue.Add(request("slow"))
	changed := c.IdleChanged()
	idle = c.Idle()
	assert.False(t, idle, "a queued Request is work")
	close(releaseCh)
	<-changed
	c.waitIdle(t)

	c.queue.Add(request("later"))
	c.waitIdle(t)
	idle = c.Idle()
	assert.True(t, idle, "a delay not yet due is not work")
	c.step(t, time.Minute)
	assert.Equal(t, 2, r.count(request("later")), "WaitIdle after the step waited for the due delay")
}

// TestDueDelayIsWork checks the queue alone, with no delay loop to move
// the Request: once its delay has passed on the clock, the queue is not
// idle, so WaitIdle after a clock step cannot return before the timer is
// handled.
func TestDueDelayIsWork(t *testing.T) {
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	q := newQueue("test", clk, workqueue.DefaultControllerRateLimiter[reconcile.Request](clk), nil, false)
	q.setRunning()
	q.mu.Lock()
	q.addAfterLocked(request("later"), time.Minute, causes{})
	q.mu.Unlock()
	idle, changed := q.idle()
	assert.True(t, idle, "a delay not yet due is not work")
	assert.Equal(t, 1, clk.Waiters(), "the timer is armed with the delay")

	clk.Step(time.Minute)
	idle, _ = q.idle()
	assert.False(t, idle, "a delay that is due is work")
	select {
	case <-changed:
		t.Fatal("nothing changed in the queue yet")
	default:
	}
	q.shutDown()
	assert.Zero(t, clk.Waiters(), "shutDown stops the timer")
}

// sourceFunc adapts a function to a source.Source.
type sourceFunc func(ctx context.Context, q handler.Queue) error

func (f sourceFunc) Start(ctx context.Context, q handler.Queue) error { return f(ctx, q) }

func TestSourcesFeedTheQueue(t *testing.T) {
	r := newRecorder(nil)
	c := newTestController(t, r)
	require.NoError(t, c.Watch(sourceFunc(func(ctx context.Context, q handler.Queue) error {
		q.Add(request("from-before-start"))
		<-ctx.Done()
		return nil
	})))
	c.start(t)
	late := make(chan struct{})
	require.NoError(t, c.Watch(sourceFunc(func(ctx context.Context, q handler.Queue) error {
		q.Add(request("from-after-start"))
		close(late)
		<-ctx.Done()
		return nil
	})), "Watch after Start starts the source at once")
	<-late
	c.waitIdle(t)
	assert.Equal(t, 1, r.count(request("from-before-start")))
	assert.Equal(t, 1, r.count(request("from-after-start")))
}

func TestFailingSourceStopsTheController(t *testing.T) {
	c := newTestController(t, newRecorder(nil))
	boom := errors.New("no such resource")
	require.NoError(t, c.Watch(sourceFunc(func(context.Context, handler.Queue) error { return boom })))
	require.NoError(t, c.Watch(sourceFunc(func(ctx context.Context, _ handler.Queue) error {
		<-ctx.Done() // stopped with the controller
		return nil
	})))
	err := c.Start(t.Context())
	assert.ErrorIs(t, err, boom, "Start returns the source's error")
	idle := c.Idle()
	assert.True(t, idle, "a stopped controller is idle")
	assert.Error(t, c.Watch(source.Channel(nil, handler.EnqueueRequestForObject{})), "no Watch once stopped")
	assert.Error(t, c.Start(t.Context()), "no second Start")
}

func TestNewValidates(t *testing.T) {
	clk := clocktest.NewFake(time.Time{})
	limiter := workqueue.DefaultControllerRateLimiter[reconcile.Request](clk)
	r := newRecorder(nil)
	tests := []struct {
		name string
		opts Options
	}{
		{name: "no name", opts: Options{Reconciler: r, MaxConcurrentReconciles: 1, RateLimiter: limiter, Clock: clk}},
		{name: "no reconciler", opts: Options{Name: "x", MaxConcurrentReconciles: 1, RateLimiter: limiter, Clock: clk}},
		{name: "no workers", opts: Options{Name: "x", Reconciler: r, RateLimiter: limiter, Clock: clk}},
		{name: "no rate limiter", opts: Options{Name: "x", Reconciler: r, MaxConcurrentReconciles: 1, Clock: clk}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.opts)
			assert.Error(t, err, "New(%+v)", tc.opts)
		})
	}
}

// TestIdleChangedWhileIdleSaysLookAgain: an idle controller may turn busy
// through a source that catches up without enqueuing anything (a handler
// that maps the object to no Request), which no queue change announces;
// so IdleChanged taken while idle is already closed, and WaitIdle looks
// again instead of sleeping on the queue until its deadline.
func TestIdleChangedWhileIdleSaysLookAgain(t *testing.T) {
	c := newTestController(t, newRecorder(nil))
	c.start(t)
	require.True(t, c.Idle())
	select {
	case <-c.IdleChanged():
	default:
		t.Fatal("IdleChanged of an idle controller blocks on its queue alone")
	}
}
