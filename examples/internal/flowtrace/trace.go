package flowtrace

import (
	"strconv"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/tracing"
)

// Trace is what one request caused, in causal order, with lookups. Safe
// for concurrent reads; never changed after New.
type Trace struct {
	// Steps are the spans the root caused, each after its causes.
	Steps []tracing.Step
	byID  map[trace.SpanID]sdktrace.ReadOnlySpan
	kids  map[trace.SpanID][]sdktrace.ReadOnlySpan
}

// New returns the Trace of what root caused among spans (see
// tracing.Timeline); its Steps are empty when root is not among them.
func New(spans []sdktrace.ReadOnlySpan, root sdktrace.ReadOnlySpan) *Trace {
	t := &Trace{byID: map[trace.SpanID]sdktrace.ReadOnlySpan{}, kids: map[trace.SpanID][]sdktrace.ReadOnlySpan{}}
	t.Steps = tracing.Timeline(spans, root.SpanContext().SpanID())
	for _, s := range t.Steps {
		t.byID[s.Span.SpanContext().SpanID()] = s.Span
		if p := s.Span.Parent(); p.IsValid() {
			t.kids[p.SpanID()] = append(t.kids[p.SpanID()], s.Span)
		}
	}
	return t
}

// Parent returns s's parent span, nil when it has none in t.
func (t *Trace) Parent(s sdktrace.ReadOnlySpan) sdktrace.ReadOnlySpan {
	return t.byID[s.Parent().SpanID()]
}

// Child returns s's first child named name (in causal order), nil if none.
func (t *Trace) Child(s sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	for _, c := range t.kids[s.SpanContext().SpanID()] {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

// Children returns s's children named name (all of them for ""), in
// causal order.
func (t *Trace) Children(s sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, c := range t.kids[s.SpanContext().SpanID()] {
		if name == "" || c.Name() == name {
			out = append(out, c)
		}
	}
	return out
}

// Linked returns the spans in t that s links to: the writes whose events
// caused it, or the reconcile that requeued it.
func (t *Trace) Linked(s sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, l := range s.Links() {
		if c, ok := t.byID[l.SpanContext.SpanID()]; ok {
			out = append(out, c)
		}
	}
	return out
}

// Attr returns s's attribute key as text, "" when s has none.
func Attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// Rev returns the rv attribute of s (an etcd.txn's, an informer
// delta's), 0 if none.
func Rev(s sdktrace.ReadOnlySpan) int64 {
	if s == nil {
		return 0
	}
	rev, _ := strconv.ParseInt(Attr(s, string(tracing.KeyRV)), 10, 64)
	return rev
}

// Component is the component that recorded s ("controller/job",
// "kubelet/minicp-node-1", ...).
func Component(s sdktrace.ReadOnlySpan) string { return tracing.Step{Span: s}.Component() }

// Write is an API request span that wrote to etcd, with what it wrote.
type Write struct {
	// Request is the "request" span; Txn its etcd.txn child.
	Request, Txn sdktrace.ReadOnlySpan
	// Rev is the revision Txn wrote.
	Rev int64
}

// Verb is the request's verb: create, update, patch, delete.
func (w Write) Verb() string { return Attr(w.Request, string(tracing.KeyVerb)) }

// Resource is the resource the request wrote, with its subresource:
// pods, pods/status, pods/binding.
func (w Write) Resource() string { return Attr(w.Request, string(tracing.KeyResource)) }

// Name is the name of the object the request wrote.
func (w Write) Name() string { return Attr(w.Request, string(tracing.KeyName)) }

// WriteOf returns the write that the request span req made, false for a
// request that wrote nothing (a read, a rejected write, an update that
// changed nothing). A write that lost a race has an etcd.txn that
// retried before the one that committed.
func (t *Trace) WriteOf(req sdktrace.ReadOnlySpan) (Write, bool) {
	if req.Name() != tracing.HopRequest {
		return Write{}, false
	}
	for _, txn := range t.Children(req, tracing.HopEtcdTxn) {
		if rev := Committed(txn); rev > 0 {
			return Write{Request: req, Txn: txn, Rev: rev}, true
		}
	}
	return Write{}, false
}

// Committed returns the revision an etcd.txn span wrote; 0 when it wrote
// nothing (it failed, or it found the key changed and retried).
func Committed(txn sdktrace.ReadOnlySpan) int64 {
	if Attr(txn, "retry") == "true" {
		return 0
	}
	return Rev(txn)
}

// LastRequest returns the latest API request (a "request" span) that did
// verb to the object name of resource in namespace; ok is false when
// spans hold none. A flow that writes one object several times finds
// each act's request right after the act (tracing.FindRequest finds the
// first).
func LastRequest(spans []sdktrace.ReadOnlySpan, verb, resource, namespace, name string) (found sdktrace.ReadOnlySpan, ok bool) {
	for _, s := range spans {
		if s.Name() != tracing.HopRequest || Attr(s, string(tracing.KeyVerb)) != verb ||
			Attr(s, string(tracing.KeyResource)) != resource || Attr(s, string(tracing.KeyNamespace)) != namespace ||
			Attr(s, string(tracing.KeyName)) != name {
			continue
		}
		if !ok || s.StartTime().After(found.StartTime()) {
			found, ok = s, true
		}
	}
	return found, ok
}
