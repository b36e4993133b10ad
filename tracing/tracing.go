package tracing

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// scopePrefix prefixes every component's instrumentation scope, so the
// component a span comes from is the scope's name after it.
const scopePrefix = "minicp/"

// Options configures a Tracing. The zero value works.
type Options struct {
	// Capacity is how many ended spans the Recorder keeps, and how many
	// revisions Revisions remembers. Defaults to 20000: a few minutes of
	// a busy workshop cluster, a few MB.
	Capacity int
	// Processors receive every span besides the Recorder, e.g. an OTLP
	// exporter's batch processor to send spans to a collector.
	Processors []sdktrace.SpanProcessor
}

// Tracing is one cluster's tracer provider, the spans it recorded and
// the writers of its etcd revisions. Safe for concurrent use. A nil
// *Tracing is valid and traces nothing.
type Tracing struct {
	provider  *sdktrace.TracerProvider
	recorder  *Recorder
	revisions *Revisions
}

// New returns a Tracing that samples every span: a control plane in a
// test or a workshop is small, and a trace with holes would mislead.
func New(opts Options) *Tracing {
	if opts.Capacity <= 0 {
		opts.Capacity = 20000
	}
	rec := NewRecorder(opts.Capacity)
	popts := []sdktrace.TracerProviderOption{
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithSpanProcessor(rec),
	}
	for _, p := range opts.Processors {
		popts = append(popts, sdktrace.WithSpanProcessor(p))
	}
	return &Tracing{
		provider:  sdktrace.NewTracerProvider(popts...),
		recorder:  rec,
		revisions: NewRevisions(opts.Capacity),
	}
}

// Tracer returns the tracer of component ("apiserver", "scheduler",
// "kubelet/node-1", ...); a no-op tracer when t is nil.
func (t *Tracing) Tracer(component string) trace.Tracer {
	if t == nil {
		return noop.NewTracerProvider().Tracer(scopePrefix + component)
	}
	return t.provider.Tracer(scopePrefix + component)
}

// Recorder returns the spans recorded so far; nil when t is nil.
func (t *Tracing) Recorder() *Recorder {
	if t == nil {
		return nil
	}
	return t.recorder
}

// Revisions returns the writers of etcd revisions; nil when t is nil
// (a nil *Revisions records and finds nothing).
func (t *Tracing) Revisions() *Revisions {
	if t == nil {
		return nil
	}
	return t.revisions
}

// Shutdown ends the provider: processors flush and no span is recorded
// after it. Safe on a nil *Tracing.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}

// TracerFrom returns component's tracer from the provider of ctx's span,
// for code on a traced path that holds no Tracing of its own (admission
// plugins, handlers); a no-op tracer when ctx is not traced.
func TracerFrom(ctx context.Context, component string) trace.Tracer {
	return trace.SpanFromContext(ctx).TracerProvider().Tracer(scopePrefix + component)
}

// Mark records a hop that is a moment rather than a span of work (a
// sandbox became ready, a container started) as a span of no length
// under ctx's span; it does nothing when ctx is not traced.
func Mark(ctx context.Context, component, hop string, attrs ...attribute.KeyValue) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return
	}
	_, span := TracerFrom(ctx, component).Start(ctx, hop, trace.WithAttributes(attrs...))
	span.End()
}
