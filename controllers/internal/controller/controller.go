package controller

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/metrics"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// Options configures New. The public package fills in the defaults.
type Options struct {
	// Name names the controller in logs. Required.
	Name string
	// Reconciler is called for each Request. Required.
	Reconciler reconcile.Reconciler
	// MaxConcurrentReconciles is the number of workers. Required, >= 1.
	MaxConcurrentReconciles int
	// RateLimiter times retries. Required.
	RateLimiter workqueue.RateLimiter[reconcile.Request]
	// Clock times delays. Required.
	Clock clock.Clock
	// Logger is scoped with the controller's name. Defaults to a discard
	// logger.
	Logger *slog.Logger
	// Metrics records reconciles and the queue's metrics. Defaults to
	// nil: none.
	Metrics *metrics.Metrics
	// Tracing, when set, makes each reconcile a span of component
	// "controller/<Name>", linked to the writes whose events enqueued
	// its Request and to the reconcile that requeued it (after an error
	// or a RequeueAfter, which the span records as requeueAfter) when
	// a write caused that one.
	// Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
}

// phase is where a Controller is in its life:
//
//	new --Start--> starting --sources synced--> running --ctx done--> stopped
//	                   \------------- a source failed -------------/
type phase int

const (
	phaseNew phase = iota
	phaseStarting
	phaseRunning
	phaseStopped
)

// Controller runs a Reconciler over the Requests its sources produce:
// MaxConcurrentReconciles workers, each taking the next Request, calling
// Reconcile and acting on the answer (see reconcileHandler). It is safe for
// concurrent use.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/internal/controller
// (Controller).
type Controller struct {
	name          string
	do            reconcile.Reconciler
	maxConcurrent int
	log           *slog.Logger
	queue         *queue
	clock         clock.Clock
	metrics       *metrics.Metrics
	tracer        trace.Tracer
	revisions     *tracing.Revisions

	// mu guards the fields below.
	mu    sync.Mutex
	phase phase
	// sources are the watches added before Start; later ones start at once.
	sources []source.Source
	// runCtx is Start's context, cancelled when the controller stops or a
	// source fails; cancel cancels it.
	runCtx context.Context
	cancel context.CancelFunc
	// sourceErrs are the errors of failed sources.
	sourceErrs []error
	// trackers are the started sources that can tell whether their
	// handler has caught up with their informer (see caughtUpSource).
	trackers []caughtUpSource
	// sourcesWG counts running sources; Add only under mu and while
	// starting or running, Wait only once stopped.
	sourcesWG sync.WaitGroup
}

// New validates opts and returns a controller with no sources.
func New(opts Options) (*Controller, error) {
	switch {
	case opts.Name == "":
		return nil, errors.New("controller: Name is required")
	case opts.Reconciler == nil:
		return nil, fmt.Errorf("controller %s: Reconciler is required", opts.Name)
	case opts.MaxConcurrentReconciles < 1:
		return nil, fmt.Errorf("controller %s: MaxConcurrentReconciles %d is below 1", opts.Name, opts.MaxConcurrentReconciles)
	case opts.RateLimiter == nil || opts.Clock == nil:
		return nil, fmt.Errorf("controller %s: RateLimiter and Clock are required", opts.Name)
	}
	return &Controller{
		name:          opts.Name,
		do:            opts.Reconciler,
		maxConcurrent: opts.MaxConcurrentReconciles,
		log:           logging.OrDiscard(opts.Logger).With("component", "controller", "controller", opts.Name),
		queue:         newQueue(opts.Name, opts.Clock, opts.RateLimiter, opts.Metrics.Workqueue(), opts.Tracing != nil),
		clock:         opts.Clock,
		metrics:       opts.Metrics,
		tracer:        opts.Tracing.Tracer("controller/" + opts.Name),
		revisions:     opts.Tracing.Revisions(),
	}, nil
}

// Name returns the controller's name.
func (c *Controller) Name() string { return c.name }

// Watch adds a source. Before Start it is started with the others; after
// Start it starts at once (and the workers do not wait for it to sync).
// It fails once the controller has stopped.
func (c *Controller) Watch(src source.Source) error {
	if src == nil {
		return fmt.Errorf("controller %s: nil source", c.name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.phase {
	case phaseNew:
		c.sources = append(c.sources, src)
	case phaseStarting, phaseRunning:
		c.startSourceLocked(src)
	default:
		return fmt.Errorf("controller %s: stopped: source not added", c.name)
	}
	return nil
}

// caughtUpSource is an optional capability of a source: source.KindSource
// reports whether its handler has handled everything its informer holds,
// and a channel closed at its next change. Idle checks it, so a change an
// informer has seen but not yet handed to the handler counts as work.
type caughtUpSource interface {
	CaughtUp() (caughtUp bool, changed <-chan struct{})
}

// startSourceLocked runs src under runCtx; a source that fails stops the
// controller.
func (c *Controller) startSourceLocked(src source.Source) {
	if t, ok := src.(caughtUpSource); ok {
		c.trackers = append(c.trackers, t)
	}
	ctx := c.runCtx
	c.sourcesWG.Go(func() {
		if err := src.Start(ctx, c.queue); err != nil {
			c.mu.Lock()
			c.sourceErrs = append(c.sourceErrs, err)
			c.mu.Unlock()
			c.cancel()
		}
	})
}

// Start runs the controller until ctx is done, then waits for its
// workers and sources to stop. It fails at once if started before, and
// returns the errors of sources that failed (which stop the controller).
//
// Startup:
//
//  1. every source starts;
//  2. the SyncingSources put their initial state on the queue;
//  3. the delay loop and MaxConcurrentReconciles workers start.
//
// Shutdown, when ctx ends or a source fails:
//
//  1. the queue shuts down: Requests not yet taken are dropped;
//  2. the reconciles in flight see their ctx cancelled, and the workers
//     return once they finish;
//  3. the sources unregister their handlers and return.
func (c *Controller) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.phase != phaseNew {
		c.mu.Unlock()
		return fmt.Errorf("controller %s: already started", c.name)
	}
	// Sources and reconciles log through the controller's logger.
	c.runCtx, c.cancel = context.WithCancel(logging.NewContext(ctx, c.log))
	ctx = c.runCtx
	c.phase = phaseStarting
	sources := c.sources
	c.sources = nil
	for _, src := range sources {
		c.startSourceLocked(src)
	}
	c.mu.Unlock()
	defer c.cancel()

	c.log.InfoContext(ctx, "starting", "workers", c.maxConcurrent)
	c.metrics.InitController(c.name)
	var workers sync.WaitGroup
	if c.waitForSources(ctx, sources) {
		c.mu.Lock()
		c.phase = phaseRunning
		c.mu.Unlock()
		c.queue.setRunning()
		workers.Go(func() { c.queue.runDelays(ctx) })
		for range c.maxConcurrent {
			workers.Go(func() {
				for c.processNextWorkItem(ctx) {
				}
			})
		}
		<-ctx.Done()
	}

	c.log.InfoContext(ctx, "stopping")
	c.queue.shutDown()
	c.mu.Lock()
	c.phase = phaseStopped
	c.mu.Unlock()
	c.cancel()
	workers.Wait()
	// No source starts once stopped, so Wait cannot race a new Add.
	c.sourcesWG.Wait()
	c.log.InfoContext(ctx, "stopped")
	c.mu.Lock()
	defer c.mu.Unlock()
	return errors.Join(c.sourceErrs...)
}

// waitForSources waits for the syncing sources among sources to put their
// initial state on the queue. It reports false when ctx ended or a source
// failed first (its error is in sourceErrs).
func (c *Controller) waitForSources(ctx context.Context, sources []source.Source) bool {
	for _, src := range sources {
		s, ok := src.(source.SyncingSource)
		if !ok {
			continue
		}
		if err := s.WaitForSync(ctx); err != nil {
			return false
		}
	}
	return ctx.Err() == nil
}

// Idle implements wait.Idler. It reports whether the controller has no work: it is running (its
// sources synced), every source that can tell (see caughtUpSource) has
// handed everything its informer holds to the queue, nothing is queued,
// nothing is being reconciled and no delay is due; or it has stopped. A
// controller that has not started is not idle: whoever asks started it
// and waits for it. changed is closed at the next change that may make
// it idle. Changes its informers have not received yet are invisible.
func (c *Controller) Idle() bool {
	idle, _ := c.idle()
	return idle
}

// IdleChanged implements wait.Idler: the channel of what keeps the
// controller busy (its queue, or a source not caught up), taken before
// Idle looks.
func (c *Controller) IdleChanged() <-chan struct{} {
	_, changed := c.idle()
	return changed
}

// idle is Idle, and a channel closed at the next change that may make it
// idle.
func (c *Controller) idle() (idle bool, changed <-chan struct{}) {
	if idle, changed = c.queue.idle(); !idle {
		return false, changed
	}
	c.mu.Lock()
	trackers, stopped := slices.Clone(c.trackers), c.phase == phaseStopped
	c.mu.Unlock()
	if stopped {
		return true, changed
	}
	for _, t := range trackers {
		if caughtUp, ch := t.CaughtUp(); !caughtUp {
			return false, ch
		}
	}
	// The queue again: a handler feeds the queue before it records the
	// object as handled, so whatever the sources had handled is in the
	// queue by now.
	if idle, changed = c.queue.idle(); !idle {
		return false, changed
	}
	// Idle: no one channel covers what may make it busy next (the queue,
	// or a source whose new object enqueues nothing), so the caller is
	// told to look again, as the Idler contract allows. Returning the
	// queue's channel here lost the wake-up of a source that caught up
	// without enqueuing: WaitIdle slept until its deadline.
	return true, wait.Closed
}

// processNextWorkItem reconciles one Request; it reports false once the
// queue is shut down.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	req, causes, ok := c.queue.get(ctx)
	if !ok {
		return false
	}
	c.reconcileHandler(ctx, req, causes)
	return true
}

// reconcileHandler calls the Reconciler with a Request-scoped logger in
// ctx and requeues the Request as its answer says:
//
//	error                 -> retry after the rate limiter's backoff
//	TerminalError         -> forget the backoff, no retry; logged as an Error
//	Result.RequeueAfter   -> forget the backoff, reconcile again after it
//	Result.Requeue        -> retry after the rate limiter's backoff
//	Result{}              -> forget the backoff
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/internal/controller
// (Controller.reconcileHandler).
func (c *Controller) reconcileHandler(ctx context.Context, req reconcile.Request, causes causes) {
	log := c.log.With("reconcileID", rand.Text(), "namespace", req.Namespace, "name", req.Name)
	ctx = logging.NewContext(ctx, log)
	log.DebugContext(ctx, "reconcile", "hop", tracing.HopReconcile)
	ctx, span := c.startReconcileSpan(ctx, req, causes)
	defer span.End()

	// A requeue links the next reconcile to this one only when a write
	// caused this one: a reconcile that ran because time passed does not
	// pass the link on, or a controller that requeues itself every few
	// seconds would trace forever after a single traced write.
	var by trace.SpanContext
	if len(causes.revs) > 0 {
		by = span.SpanContext()
	}

	start := c.clock.Now()
	result, err := c.reconcile(ctx, req)
	elapsed := c.clock.Since(start)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	var pe *panicError
	switch {
	case err != nil && ctx.Err() != nil:
		// Stopping: the error is most likely the cancellation itself,
		// and the Request is dropped with the queue anyway.
		log.DebugContext(ctx, "reconcile ended by shutdown", "err", err)
		c.queue.done(req, requeueNone, 0, by)
	case errors.Is(err, reconcile.TerminalError(nil)):
		log.ErrorContext(ctx, "reconcile failed, not retrying", "err", err)
		c.metrics.ObserveReconcile(c.name, metrics.ResultError, elapsed)
		c.queue.done(req, requeueNone, 0, by)
	case errors.As(err, &pe):
		log.ErrorContext(ctx, "reconciler panicked, retrying", "err", err, "stack", string(pe.stack))
		c.metrics.ObserveReconcile(c.name, metrics.ResultError, elapsed)
		c.queue.done(req, requeueRateLimited, 0, by)
	case err != nil:
		// The Result is ignored with an error, as upstream does.
		log.WarnContext(ctx, "reconcile failed, retrying", "err", err)
		c.metrics.ObserveReconcile(c.name, metrics.ResultError, elapsed)
		c.queue.done(req, requeueRateLimited, 0, by)
	case result.RequeueAfter > 0:
		c.metrics.ObserveReconcile(c.name, metrics.ResultRequeueAfter, elapsed)
		span.SetAttributes(attribute.Stringer("requeueAfter", result.RequeueAfter))
		c.queue.done(req, requeueAfter, result.RequeueAfter, by)
	case result.Requeue:
		c.metrics.ObserveReconcile(c.name, metrics.ResultRequeue, elapsed)
		c.queue.done(req, requeueRateLimited, 0, by)
	default:
		c.metrics.ObserveReconcile(c.name, metrics.ResultSuccess, elapsed)
		c.queue.done(req, requeueNone, 0, by)
	}
}

// reconcile calls the Reconciler, turning a panic into a *panicError: the
// reconciler call is a trust boundary (STYLE §7), and a bug in one
// Reconcile must not stop the controller, let alone the process.
func (c *Controller) reconcile(ctx context.Context, req reconcile.Request) (result reconcile.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{value: p, stack: debug.Stack()}
		}
	}()
	return c.do.Reconcile(ctx, req)
}

// panicError is a panic recovered from Reconcile.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v [recovered]", e.value) }
