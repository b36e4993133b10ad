package storage

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/tracing"
)

// txnHop is the etcd.txn hop of one write: its span and its one Debug
// record. Each attempt of a write's optimistic loop is a hop of its own:
// a lost race shows as a hop that retried.
type txnHop struct {
	s    *Store
	ctx  context.Context
	span trace.Span
	verb string
	key  string
	// pending ends the write's entry in the store's Revisions.
	pending func()
}

// startTxn starts the hop of the etcd transaction of a write of key,
// which the writer found at revision prevRev (0 for a create); the
// transaction runs with the returned hop's ctx. Only a write made in a
// trace gets a span: a root span per untraced write (the server's own
// bookkeeping) would bury the traces someone asked for.
func (s *Store) startTxn(ctx context.Context, verb, key string, prevRev int64) txnHop {
	span := trace.SpanFromContext(ctx) // a no-op span when untraced
	if span.SpanContext().IsValid() {
		ctx, span = s.tracer.Start(ctx, tracing.HopEtcdTxn, trace.WithAttributes(
			tracing.KeyVerb.String(verb), attribute.String("key", key)))
	}
	return txnHop{s: s, ctx: ctx, span: span, verb: verb, key: key,
		pending: s.revisions.Pending(key, prevRev, span.SpanContext())}
}

// committed ends a hop whose transaction wrote revision rev, and records
// the hop's span as rev's writer.
func (h *txnHop) committed(rev int64) {
	h.s.logger.DebugContext(h.ctx, "etcd txn", "hop", tracing.HopEtcdTxn, "verb", h.verb, "key", h.key, "rv", rev)
	h.span.SetAttributes(tracing.KeyRV.Int64(rev))
	h.s.revisions.Record(rev, h.span.SpanContext())
	h.pending()
	h.span.End()
}

// retried ends a hop whose transaction found the object changed since
// revision rev: the write is tried again on what it found.
func (h *txnHop) retried(rev int64) {
	h.s.logger.DebugContext(h.ctx, "etcd txn", "hop", tracing.HopEtcdTxn, "verb", h.verb, "key", h.key, "rv", rev, "retry", true)
	h.span.SetAttributes(tracing.KeyRV.Int64(rev), attribute.Bool("retry", true))
	h.pending()
	h.span.End()
}

// failed ends a hop whose transaction did not write: an etcd error, or a
// create of a key that exists.
func (h *txnHop) failed(err error) {
	h.span.SetStatus(codes.Error, err.Error())
	h.pending()
	h.span.End()
}
