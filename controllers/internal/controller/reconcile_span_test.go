package controller

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/tracing"
)

// TestReconcileLinksItsCauses: the revisions of the changes that enqueued
// a Request (folded into one reconcile) reach its span as links to the
// traced writes; untraced ones are left out, and nothing traced caused
// means no span.
func TestReconcileLinksItsCauses(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	c, err := New(Options{
		Name: "test", Reconciler: reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		}),
		MaxConcurrentReconciles: 1, RateLimiter: workqueue.DefaultControllerRateLimiter[reconcile.Request](clk), Clock: clk,
		Tracing: tr,
	})
	require.NoError(t, err)
	var writers []trace.SpanContext
	for rev := int64(10); rev <= 11; rev++ {
		_, s := tr.Tracer("apiserver").Start(context.Background(), tracing.HopEtcdTxn)
		s.End()
		tr.Revisions().Record(rev, s.SpanContext())
		writers = append(writers, s.SpanContext())
	}
	c.queue.AddCausedBy(request("a"), 10)
	c.queue.AddCausedBy(request("a"), 11)
	c.queue.AddCausedBy(request("a"), 12) // written untraced
	c.queue.Add(request("b"))

	for range 2 {
		req, causes, ok := c.queue.get(t.Context())
		require.True(t, ok)
		c.reconcileHandler(t.Context(), req, causes)
	}
	var reconciles []trace.Link
	for _, s := range tr.Recorder().Spans() {
		if s.Name() == tracing.HopReconcile {
			assert.Contains(t, s.Attributes(), tracing.KeyName.String("a"), "only a's reconcile was caused by traced writes")
			assert.Equal(t, "minicp/controller/test", s.InstrumentationScope().Name)
			for _, l := range s.Links() {
				reconciles = append(reconciles, trace.Link{SpanContext: l.SpanContext})
			}
		}
	}
	require.Len(t, reconciles, 2, "one reconcile span with a link per traced cause")
	assert.Equal(t, writers[0], reconciles[0].SpanContext)
	assert.Equal(t, writers[1], reconciles[1].SpanContext)
}

// TestRequeueAfterLinksTheReconcileThatWaited: a Request requeued after a
// delay is reconciled because time passed, not because of a write; its
// span links to the traced reconcile that asked to wait, which records
// how long. It does not pass the link on: its own requeue is untraced.
func TestRequeueAfterLinksTheReconcileThatWaited(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	calls := 0
	c, err := New(Options{
		Name: "test", Reconciler: reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			calls++
			return reconcile.Result{RequeueAfter: 10 * time.Second}, nil
		}),
		MaxConcurrentReconciles: 1, RateLimiter: workqueue.DefaultControllerRateLimiter[reconcile.Request](clk), Clock: clk,
		Tracing: tr,
	})
	require.NoError(t, err)
	_, s := tr.Tracer("apiserver").Start(context.Background(), tracing.HopEtcdTxn)
	s.End()
	tr.Revisions().Record(10, s.SpanContext())
	c.queue.AddCausedBy(request("a"), 10)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { c.queue.runDelays(ctx) })
	defer func() { cancel(); wg.Wait() }()
	req, causes, ok := c.queue.get(t.Context())
	require.True(t, ok)
	c.reconcileHandler(t.Context(), req, causes)
	for range 2 {
		require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "the delay's timer")
		clk.Step(10 * time.Second)
		req, causes, ok = c.queue.get(t.Context())
		require.True(t, ok)
		c.reconcileHandler(t.Context(), req, causes)
	}
	require.Equal(t, 3, calls)

	var reconciles []sdktrace.ReadOnlySpan
	for _, s := range tr.Recorder().Spans() {
		if s.Name() == tracing.HopReconcile {
			reconciles = append(reconciles, s)
		}
	}
	require.Len(t, reconciles, 2, "the third reconcile, caused by time alone twice, is untraced")
	assert.Contains(t, reconciles[0].Attributes(), attribute.String("requeueAfter", "10s"))
	require.Len(t, reconciles[1].Links(), 1, "the second reconcile's cause")
	assert.Equal(t, reconciles[0].SpanContext(), reconciles[1].Links()[0].SpanContext, "linked to the reconcile that waited")
}
