package main

import (
	"slices"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
)

// hops are the spans of the flow, found in the cluster's traces.
type hops struct {
	dns                   sdktrace.ReadOnlySpan
	postProxy, getProxy   sdktrace.ReadOnlySpan
	postHTTP, getHTTP     sdktrace.ReadOnlySpan
	create, read          sdktrace.ReadOnlySpan // the operator's API requests
	createTxn             sdktrace.ReadOnlySpan
	dispatch, delta       sdktrace.ReadOnlySpan
	reconcile             sdktrace.ReadOnlySpan
	marks                 []sdktrace.ReadOnlySpan // read, diff, act
	configMap, status     sdktrace.ReadOnlySpan   // the reconcile's writes
	configMapTx, statusTx sdktrace.ReadOnlySpan
}

// errMissing says which hop is not (yet) among the spans.
type errMissing string

func (e errMissing) Error() string { return "no span yet for " + string(e) }

// index finds spans by their relations.
type index struct {
	spans    []sdktrace.ReadOnlySpan
	children map[trace.SpanID][]sdktrace.ReadOnlySpan
	// linkers are the spans that link to a span: the handlers of the
	// watch event of the write it made.
	linkers map[trace.SpanID][]sdktrace.ReadOnlySpan
}

func newIndex(spans []sdktrace.ReadOnlySpan) *index {
	slices.SortStableFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	ix := &index{spans: spans, children: map[trace.SpanID][]sdktrace.ReadOnlySpan{}, linkers: map[trace.SpanID][]sdktrace.ReadOnlySpan{}}
	for _, s := range spans {
		if p := s.Parent(); p.IsValid() {
			ix.children[p.SpanID()] = append(ix.children[p.SpanID()], s)
		}
		for _, l := range s.Links() {
			ix.linkers[l.SpanContext.SpanID()] = append(ix.linkers[l.SpanContext.SpanID()], s)
		}
	}
	return ix
}

// child returns the first child of parent named name whose attributes
// include want (key, value pairs).
func (ix *index) child(parent sdktrace.ReadOnlySpan, name string, want ...string) (sdktrace.ReadOnlySpan, error) {
	if parent == nil {
		return nil, errMissing(name)
	}
	for _, s := range ix.children[parent.SpanContext().SpanID()] {
		if s.Name() == name && matches(s, want) {
			return s, nil
		}
	}
	return nil, errMissing(name + " " + strings.Join(want, "="))
}

// last returns the latest span named name whose attributes include want.
func (ix *index) last(name string, want ...string) (sdktrace.ReadOnlySpan, error) {
	for i := len(ix.spans) - 1; i >= 0; i-- {
		if s := ix.spans[i]; s.Name() == name && matches(s, want) {
			return s, nil
		}
	}
	return nil, errMissing(name + " " + strings.Join(want, "="))
}

func matches(s sdktrace.ReadOnlySpan, want []string) bool {
	for i := 0; i+1 < len(want); i += 2 {
		if flowtrace.Attr(s, want[i]) != want[i+1] {
			return false
		}
	}
	return true
}

// linker returns the first span named name, recorded by comp, that links
// to target.
func (ix *index) linker(target sdktrace.ReadOnlySpan, name, comp string) (sdktrace.ReadOnlySpan, error) {
	if target != nil {
		for _, s := range ix.linkers[target.SpanContext().SpanID()] {
			if s.Name() == name && strings.HasPrefix(flowtrace.Component(s), comp) {
				return s, nil
			}
		}
	}
	return nil, errMissing(name + " of " + comp)
}

// findHops finds every hop of the flow; errMissing when one is not
// recorded yet.
func findHops(ix *index, d *deployment, res *result) (*hops, error) {
	h := &hops{}
	var err error
	find := func(s *sdktrace.ReadOnlySpan, f func() (sdktrace.ReadOnlySpan, error)) {
		if err == nil {
			*s, err = f()
		}
	}
	leader := "operator/" + d.leader
	find(&h.dns, func() (sdktrace.ReadOnlySpan, error) {
		return ix.last(tracing.HopDNSQuery, "question", res.fqdn, "type", "A")
	})
	find(&h.postProxy, func() (sdktrace.ReadOnlySpan, error) {
		return ix.last(tracing.HopProxyForward, "client", res.post.local.String())
	})
	find(&h.getProxy, func() (sdktrace.ReadOnlySpan, error) {
		return ix.last(tracing.HopProxyForward, "client", res.get.local.String())
	})
	find(&h.postHTTP, func() (sdktrace.ReadOnlySpan, error) { return ix.childOfID(res.post.span, hopHTTP) })
	find(&h.getHTTP, func() (sdktrace.ReadOnlySpan, error) { return ix.childOfID(res.get.span, hopHTTP) })
	find(&h.create, func() (sdktrace.ReadOnlySpan, error) {
		return ix.child(h.postHTTP, tracing.HopRequest, "verb", "create", "resource", "websites")
	})
	find(&h.read, func() (sdktrace.ReadOnlySpan, error) {
		return ix.child(h.getHTTP, tracing.HopRequest, "verb", "get", "resource", "websites")
	})
	find(&h.createTxn, func() (sdktrace.ReadOnlySpan, error) { return ix.child(h.create, tracing.HopEtcdTxn) })
	find(&h.dispatch, func() (sdktrace.ReadOnlySpan, error) {
		return ix.linker(h.createTxn, tracing.HopWatchCacheDispatch, "apiserver")
	})
	find(&h.delta, func() (sdktrace.ReadOnlySpan, error) {
		return ix.linker(h.createTxn, tracing.HopInformerDelta, leader)
	})
	find(&h.reconcile, func() (sdktrace.ReadOnlySpan, error) {
		return ix.linker(h.createTxn, tracing.HopReconcile, "controller/")
	})
	find(&h.configMap, func() (sdktrace.ReadOnlySpan, error) {
		return ix.child(h.reconcile, tracing.HopRequest, "verb", "create", "resource", "configmaps")
	})
	find(&h.status, func() (sdktrace.ReadOnlySpan, error) {
		return ix.child(h.reconcile, tracing.HopRequest, "verb", "update", "resource", "websites/status")
	})
	find(&h.configMapTx, func() (sdktrace.ReadOnlySpan, error) { return ix.child(h.configMap, tracing.HopEtcdTxn) })
	find(&h.statusTx, func() (sdktrace.ReadOnlySpan, error) { return ix.child(h.status, tracing.HopEtcdTxn) })
	if err != nil {
		return nil, err
	}
	for _, name := range []string{hopRead, hopDiff, hopAct} {
		m, err := ix.child(h.reconcile, name)
		if err != nil {
			return nil, err
		}
		h.marks = append(h.marks, m)
	}
	return h, nil
}

// childOfID is child for a parent known by its ID only (the client's
// span, which ends after its request's answer, so may not be recorded).
func (ix *index) childOfID(parent trace.SpanID, name string) (sdktrace.ReadOnlySpan, error) {
	for _, s := range ix.children[parent] {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, errMissing(name)
}
