package flowtrace_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
)

// span starts and ends a span named hop under ctx's span.
func span(ctx context.Context, tr *tracing.Tracing, component, hop string, attrs []attribute.KeyValue, links ...trace.Link) (context.Context, trace.SpanContext) {
	ctx, s := tr.Tracer(component).Start(ctx, hop, trace.WithAttributes(attrs...), trace.WithLinks(links...))
	s.End()
	return ctx, s.SpanContext()
}

// TestWriteOf: a write that lost a race has an etcd.txn that retried
// (at the revision it found) before the one that committed; the write is
// the committed one. A reconcile linked to the write's revision is in
// the request's Trace, and the pod it creates is a child of it.
func TestWriteOf(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	ctx := context.Background()
	reqCtx, _ := span(ctx, tr, "apiserver", tracing.HopRequest, []attribute.KeyValue{
		tracing.KeyVerb.String("update"), tracing.KeyResource.String("jobs/status"), tracing.KeyName.String("pi"),
	})
	span(reqCtx, tr, "apiserver", tracing.HopEtcdTxn, []attribute.KeyValue{tracing.KeyRV.Int64(7), attribute.Bool("retry", true)})
	_, txn := span(reqCtx, tr, "apiserver", tracing.HopEtcdTxn, []attribute.KeyValue{tracing.KeyRV.Int64(9)})
	recCtx, _ := span(ctx, tr, "controller/job", tracing.HopReconcile, nil, trace.Link{SpanContext: txn})
	span(recCtx, tr, "apiserver", tracing.HopRequest, []attribute.KeyValue{tracing.KeyVerb.String("get")})

	spans := tr.Recorder().Spans()
	root, ok := flowtrace.LastRequest(spans, "update", "jobs/status", "", "pi")
	require.True(t, ok, "the update's request span")
	ft := flowtrace.New(spans, root)
	require.Len(t, ft.Steps, 5, "the request, its two transactions, the reconcile and its read")

	w, ok := ft.WriteOf(root)
	require.True(t, ok)
	assert.Equal(t, int64(9), w.Rev, "the committed transaction's revision")
	assert.Equal(t, "update", w.Verb())
	assert.Equal(t, "jobs/status", w.Resource())
	assert.Equal(t, "pi", w.Name())

	reconcile := ft.Steps[3].Span
	assert.Equal(t, tracing.HopReconcile, reconcile.Name())
	assert.Equal(t, "controller/job", flowtrace.Component(reconcile))
	linked := ft.Linked(reconcile)
	require.Len(t, linked, 1)
	assert.Equal(t, w.Txn, linked[0], "the reconcile links to the write")
	read := ft.Steps[4].Span
	assert.Equal(t, reconcile, ft.Parent(read))
	_, ok = ft.WriteOf(read)
	assert.False(t, ok, "a read writes nothing")
}
