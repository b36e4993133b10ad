package tracing

import (
	"cmp"
	"container/heap"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Step is one span of a Timeline and how many causes separate it from
// the root.
type Step struct {
	Span  sdktrace.ReadOnlySpan
	Depth int
}

// Component is the component that recorded the span: its tracer's name
// (see Tracing.Tracer).
func (s Step) Component() string {
	return strings.TrimPrefix(s.Span.InstrumentationScope().Name, scopePrefix)
}

// Timeline returns what root caused, among spans: root, its children, and
// the spans that link to any of them (the handling of a watch event of a
// write), recursively. The order is causal: every span comes after its
// parent and after the spans it links to; among spans whose causes are
// all listed, the one that started first comes first. So a learner never
// sees an event dispatched before the write that made it, whatever the
// clocks or the order in which spans ended.
func Timeline(spans []sdktrace.ReadOnlySpan, root trace.SpanID) []Step {
	byID := make(map[trace.SpanID]sdktrace.ReadOnlySpan, len(spans))
	for _, s := range spans {
		byID[s.SpanContext().SpanID()] = s
	}
	if _, ok := byID[root]; !ok {
		return nil
	}
	// effects[c] are the spans c caused directly.
	effects := map[trace.SpanID][]trace.SpanID{}
	for _, s := range spans {
		id := s.SpanContext().SpanID()
		if p := s.Parent(); p.IsValid() {
			effects[p.SpanID()] = append(effects[p.SpanID()], id)
		}
		for _, l := range s.Links() {
			effects[l.SpanContext.SpanID()] = append(effects[l.SpanContext.SpanID()], id)
		}
	}
	// Breadth first from root: depth is the fewest causes from root.
	depth := map[trace.SpanID]int{root: 0}
	queue := []trace.SpanID{root}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, e := range effects[c] {
			if _, seen := depth[e]; !seen {
				depth[e] = depth[c] + 1
				queue = append(queue, e)
			}
		}
	}
	// Kahn's algorithm over the reached spans, the earliest start first.
	pending := map[trace.SpanID]int{}
	for id := range depth {
		for _, c := range causes(byID[id]) {
			if _, reached := depth[c]; reached && c != id {
				pending[id]++
			}
		}
	}
	ready := &byStart{}
	for id := range depth {
		if pending[id] == 0 {
			heap.Push(ready, byID[id])
		}
	}
	out := make([]Step, 0, len(depth))
	done := map[trace.SpanID]bool{}
	for ready.Len() > 0 {
		s := heap.Pop(ready).(sdktrace.ReadOnlySpan)
		id := s.SpanContext().SpanID()
		if done[id] {
			continue
		}
		done[id] = true
		out = append(out, Step{Span: s, Depth: depth[id]})
		for _, e := range effects[id] {
			if _, reached := depth[e]; !reached || done[e] {
				continue
			}
			if pending[e]--; pending[e] == 0 {
				heap.Push(ready, byID[e])
			}
		}
	}
	// A cycle cannot happen (a span links only to spans that ended
	// before it started), but a malformed trace must not lose spans.
	var rest []sdktrace.ReadOnlySpan
	for id := range depth {
		if !done[id] {
			rest = append(rest, byID[id])
		}
	}
	slices.SortFunc(rest, compareStart)
	for _, s := range rest {
		out = append(out, Step{Span: s, Depth: depth[s.SpanContext().SpanID()]})
	}
	return out
}

// causes are the spans s names as its causes: its parent and its links.
func causes(s sdktrace.ReadOnlySpan) []trace.SpanID {
	var out []trace.SpanID
	if p := s.Parent(); p.IsValid() {
		out = append(out, p.SpanID())
	}
	for _, l := range s.Links() {
		out = append(out, l.SpanContext.SpanID())
	}
	return out
}

func compareStart(a, b sdktrace.ReadOnlySpan) int {
	if c := a.StartTime().Compare(b.StartTime()); c != 0 {
		return c
	}
	return cmp.Compare(a.Name(), b.Name())
}

// byStart is a heap of spans, the earliest start on top.
type byStart []sdktrace.ReadOnlySpan

func (h byStart) Len() int           { return len(h) }
func (h byStart) Less(i, j int) bool { return compareStart(h[i], h[j]) < 0 }
func (h byStart) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *byStart) Push(x any)        { *h = append(*h, x.(sdktrace.ReadOnlySpan)) }
func (h *byStart) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}

// Print writes steps one per line: the time since the first step
// started, the component, the hop indented by its depth, how long it took,
// and its attributes in the order they were set.
func Print(w io.Writer, steps []Step) error {
	if len(steps) == 0 {
		return nil
	}
	t0 := steps[0].Span.StartTime()
	for _, s := range steps {
		if _, err := fmt.Fprintln(w, Line(s, t0)); err != nil {
			return err
		}
	}
	return nil
}

// Line is the line Print writes for s, timed from t0.
func Line(s Step, t0 time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%9s  %-16s %s%-*s", offset(s.Span.StartTime().Sub(t0)), s.Component(),
		strings.Repeat("  ", min(s.Depth, 8)), max(24-2*min(s.Depth, 8), 1), s.Span.Name())
	if d := s.Span.EndTime().Sub(s.Span.StartTime()); d > 0 {
		fmt.Fprintf(&b, " %8s", offset(d)[1:])
	}
	for _, kv := range s.Span.Attributes() {
		fmt.Fprintf(&b, " %s=%s", kv.Key, kv.Value.Emit())
	}
	if st := s.Span.Status(); st.Description != "" {
		fmt.Fprintf(&b, " error=%q", st.Description)
	}
	return b.String()
}

// offset formats d as +1.23ms: milliseconds read best for a control
// plane whose hops take micro- to milliseconds.
func offset(d time.Duration) string {
	return fmt.Sprintf("+%.2fms", float64(d.Microseconds())/1000)
}

// FindRequest returns the API request (a "request" span) that did verb
// to the object name of resource in namespace, the earliest of them;
// ok is false when spans hold none. A create is found by the name of the
// object it made.
func FindRequest(spans []sdktrace.ReadOnlySpan, verb, resource, namespace, name string) (found sdktrace.ReadOnlySpan, ok bool) {
	want := map[attribute.Key]string{KeyVerb: verb, KeyResource: resource, KeyName: name}
	if namespace != "" {
		want[KeyNamespace] = namespace
	}
	for _, s := range spans {
		if s.Name() != HopRequest {
			continue
		}
		matched := 0
		for _, kv := range s.Attributes() {
			if v, ok := want[kv.Key]; ok && kv.Value.AsString() == v {
				matched++
			}
		}
		if matched == len(want) && (!ok || s.StartTime().Before(found.StartTime())) {
			found, ok = s, true
		}
	}
	return found, ok
}
