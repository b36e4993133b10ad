package controller

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/tracing"
)

// startReconcileSpan starts the span of one reconcile of req: a trace of
// its own (a reconcile serves every change folded into its Request),
// linked to the traced writes whose events enqueued it and to the traced
// reconciles that requeued it. The writes the reconcile makes join it
// through ctx. Untraced (no Tracing, or nothing traced caused it), the
// span is a no-op.
func (c *Controller) startReconcileSpan(ctx context.Context, req reconcile.Request, causes causes) (context.Context, trace.Span) {
	var links []trace.Link
	for _, rev := range causes.revs {
		if l, ok := c.revisions.Link(rev); ok {
			links = append(links, l)
		}
	}
	for _, sc := range causes.reconcile {
		links = append(links, trace.Link{SpanContext: sc})
	}
	if len(links) == 0 {
		return ctx, trace.SpanFromContext(context.Background()) // a no-op span
	}
	return c.tracer.Start(ctx, tracing.HopReconcile, trace.WithNewRoot(), trace.WithLinks(links...),
		trace.WithAttributes(tracing.KeyNamespace.String(req.Namespace), tracing.KeyName.String(req.Name)))
}
