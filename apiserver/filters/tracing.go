package filters

import (
	"context"
	"net/http"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/tracing"
)

// WithTracing makes each request a span, "request", of the caller's
// trace (the traceparent header, or the context of an in-process
// client), or of a trace of its own; the filters, admission, the etcd
// transaction and the handlers add theirs under it. It runs after
// WithRequestInfo, whose verb, resource, namespace and name it records,
// and ends the span with the response's code. A nil tracer is a no-op.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/filters (WithTracing), which
// names the span "HTTP <verb>" through otelhttp.
func WithTracing(h http.Handler, tracer trace.Tracer) http.Handler {
	if tracer == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		attrs := []attribute.KeyValue{attribute.String("method", r.Method), attribute.String("path", r.URL.Path)}
		if info, ok := request.RequestInfoFrom(ctx); ok && info.IsResourceRequest {
			resource := info.Resource
			if info.Subresource != "" {
				resource += "/" + info.Subresource
			}
			attrs = append(attrs, tracing.KeyVerb.String(info.Verb), tracing.KeyResource.String(resource))
			if info.Namespace != "" {
				attrs = append(attrs, tracing.KeyNamespace.String(info.Namespace))
			}
			if info.Name != "" {
				attrs = append(attrs, tracing.KeyName.String(info.Name))
			}
		}
		if ua := r.UserAgent(); ua != "" {
			attrs = append(attrs, attribute.String("userAgent", ua))
		}
		ctx, span := tracer.Start(ctx, tracing.HopRequest, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
		defer span.End()
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(rec, r.WithContext(ctx))
		span.SetAttributes(tracing.KeyCode.Int(rec.code))
		if rec.code >= http.StatusBadRequest {
			span.SetStatus(codes.Error, http.StatusText(rec.code))
		}
	})
}

// TracedHop wraps filter so that the filter's own work, until it hands
// the request on or answers it, is a span named hop under the request's
// span; the handlers after it stay under the request's span, not the
// hop's. attrs, when not nil, gives attributes read from the request as
// the filter hands it on (the user, after authentication). A nil tracer
// returns filter as it is.
func TracedHop(hop string, tracer trace.Tracer, filter func(http.Handler) http.Handler, attrs func(*http.Request) []attribute.KeyValue) func(http.Handler) http.Handler {
	if tracer == nil {
		return filter
	}
	return func(next http.Handler) http.Handler {
		// spanKey finds the hop's span and its parent in the request the
		// filter hands on: the filter may have replaced the context, but
		// keeps its values.
		inner := filter(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hs, _ := r.Context().Value(hopKey{}).(*hopSpan)
			if hs == nil {
				next.ServeHTTP(w, r)
				return
			}
			if attrs != nil {
				hs.span.SetAttributes(attrs(r)...)
			}
			hs.end()
			next.ServeHTTP(w, r.WithContext(trace.ContextWithSpan(r.Context(), hs.parent)))
		}))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			parent := trace.SpanFromContext(r.Context())
			if !parent.SpanContext().IsValid() {
				inner.ServeHTTP(w, r)
				return
			}
			ctx, span := tracer.Start(r.Context(), hop)
			hs := &hopSpan{span: span, parent: parent}
			rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
			inner.ServeHTTP(rec, r.WithContext(context.WithValue(ctx, hopKey{}, hs)))
			// A filter that answered ended the request at this hop.
			span.SetAttributes(tracing.KeyCode.Int(rec.code))
			if rec.code >= http.StatusBadRequest {
				span.SetStatus(codes.Error, http.StatusText(rec.code))
			}
			hs.end()
		})
	}
}

// hopKey is the context key of the hopSpan of the filter running.
type hopKey struct{}

// hopSpan is a filter's hop: its span, ended once, and the request's
// span to restore after it.
type hopSpan struct {
	span   trace.Span
	parent trace.Span
	ended  atomic.Bool
}

// end ends the span unless it ended already; it reports whether it did.
func (h *hopSpan) end() bool {
	if !h.ended.CompareAndSwap(false, true) {
		return false
	}
	h.span.End()
	return true
}
