package tracing

import (
	"context"
	"sync"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/wait"
)

// Recorder is a span processor that keeps the last spans to end, in the
// order they ended, for readers in the same process: the timeline
// printer, the web view. It holds at most its capacity; older spans are
// dropped, which Dropped counts. Safe for concurrent use.
type Recorder struct {
	changed wait.Broadcast

	// mu guards the fields below. ring[(start+i)%len(ring)] for i < n are
	// the kept spans, oldest first.
	mu      sync.Mutex
	ring    []sdktrace.ReadOnlySpan
	start   int
	n       int
	dropped uint64
	stopped bool
}

var _ sdktrace.SpanProcessor = (*Recorder)(nil)

// NewRecorder returns a Recorder keeping up to capacity spans (at least
// one).
func NewRecorder(capacity int) *Recorder {
	return &Recorder{ring: make([]sdktrace.ReadOnlySpan, max(capacity, 1))}
}

// OnStart implements sdktrace.SpanProcessor: a span is kept once it ends.
func (r *Recorder) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd implements sdktrace.SpanProcessor: it keeps s, dropping the
// oldest span when full, and wakes the readers waiting on Changed.
func (r *Recorder) OnEnd(s sdktrace.ReadOnlySpan) {
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		return
	}
	if r.n == len(r.ring) {
		r.ring[r.start] = s
		r.start = (r.start + 1) % len(r.ring)
		r.dropped++
	} else {
		r.ring[(r.start+r.n)%len(r.ring)] = s
		r.n++
	}
	r.mu.Unlock()
	r.changed.Notify()
}

// Shutdown implements sdktrace.SpanProcessor: spans ending later are not
// kept; those kept stay readable.
func (r *Recorder) Shutdown(context.Context) error {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.changed.Notify()
	return nil
}

// ForceFlush implements sdktrace.SpanProcessor: there is nothing
// buffered.
func (r *Recorder) ForceFlush(context.Context) error { return nil }

// Spans returns the kept spans, oldest first. The slice is the caller's.
func (r *Recorder) Spans() []sdktrace.ReadOnlySpan {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]sdktrace.ReadOnlySpan, 0, r.n)
	for i := range r.n {
		out = append(out, r.ring[(r.start+i)%len(r.ring)])
	}
	return out
}

// Trace returns the kept spans of one trace, oldest first.
func (r *Recorder) Trace(id trace.TraceID) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.Spans() {
		if s.SpanContext().TraceID() == id {
			out = append(out, s)
		}
	}
	return out
}

// Dropped returns how many spans were dropped to make room.
func (r *Recorder) Dropped() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Changed returns a channel closed when the next span is kept (or the
// Recorder shuts down). Take it before reading Spans, so a span kept in
// between is not missed.
func (r *Recorder) Changed() <-chan struct{} { return r.changed.Wait() }
