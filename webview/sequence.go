package webview

import (
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/tracing"
)

// Lanes of the sequence diagram, left to right in the order a write
// travels: from the client through the API server's hops to etcd, back
// out through the watch cache to the components' informers, and on to
// the component that acts and the status it writes.
const (
	laneClient     = "client"
	laneAuthn      = "authn"
	laneAuthz      = "authz"
	laneAdmission  = "admission"
	laneValidation = "validation"
	laneEtcd       = "etcd"
	laneWatchCache = "watchcache"
	laneInformers  = "informers"
	laneController = "controller"
	laneScheduler  = "scheduler"
	laneKubelet    = "kubelet"
	laneStatus     = "status"
)

// lane is one column of the diagram.
type lane struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

var lanes = []lane{
	{laneClient, "kubectl (client)"},
	{laneAuthn, "authn"},
	{laneAuthz, "authz"},
	{laneAdmission, "admission"},
	{laneValidation, "validation"},
	{laneEtcd, "etcd"},
	{laneWatchCache, "watch cache"},
	{laneInformers, "informers"},
	{laneController, "controller"},
	{laneScheduler, "scheduler"},
	{laneKubelet, "kubelet"},
	{laneStatus, "status"},
}

// laneOf is the lane of a span named hop, recorded by component, whose
// cause is in causeLane ("" for the request the diagram starts from).
// An API request sits in the lane of whoever sent it: the client for
// the first, the scheduler for its binding, a controller for the objects
// it creates; a status write has a lane of its own.
func laneOf(hop, component, resource, causeLane string) string {
	switch {
	case hop == tracing.HopRequest:
		if strings.HasSuffix(resource, "/status") {
			return laneStatus
		}
		if causeLane == "" {
			return laneClient
		}
		return causeLane
	case hop == tracing.HopAuthn:
		return laneAuthn
	case hop == tracing.HopAuthz:
		return laneAuthz
	case strings.HasPrefix(hop, "admission."):
		return laneAdmission
	case hop == tracing.HopValidation:
		return laneValidation
	case hop == tracing.HopEtcdTxn:
		return laneEtcd
	case hop == tracing.HopWatchCacheDispatch:
		return laneWatchCache
	case hop == tracing.HopInformerDelta:
		return laneInformers
	case hop == tracing.HopReconcile:
		return laneController
	case strings.HasPrefix(hop, "scheduler."):
		return laneScheduler
	case hop == tracing.HopKubeletStatus:
		return laneStatus
	case strings.HasPrefix(hop, "kubelet.") || strings.HasPrefix(hop, "runtime.") || strings.HasPrefix(hop, "cni."):
		return laneKubelet
	case component == "scheduler":
		return laneScheduler
	case strings.HasPrefix(component, "kubelet"):
		return laneKubelet
	case causeLane != "":
		return causeLane
	}
	return laneClient
}

// step is one hop of the diagram: an arrow from the lane of its cause to
// its own.
type step struct {
	ID        string            `json:"id"`
	Hop       string            `json:"hop"`
	Component string            `json:"component"`
	From      string            `json:"from"`
	Lane      string            `json:"lane"`
	Depth     int               `json:"depth"`
	OffsetMS  float64           `json:"offsetMs"`
	TookMS    float64           `json:"tookMs"`
	Attrs     map[string]string `json:"attrs"`
	Error     string            `json:"error,omitempty"`
}

// sequenceView is the body of GET /api/sequence.
type sequenceView struct {
	Tracing bool   `json:"tracing"`
	Found   bool   `json:"found"`
	Message string `json:"message,omitempty"`
	Lanes   []lane `json:"lanes"`
	Steps   []step `json:"steps"`
}

// serveSequence serves GET /api/sequence?resource=&name=&namespace=&verb=:
// the hops of the earliest traced request that did verb (default create)
// to the object, and of everything it caused, in causal order
// (tracing.Timeline), each in its lane. resource is the plural the
// request named ("pods", "deployments").
func (s *Server) serveSequence(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	resource, name := q.Get("resource"), q.Get("name")
	if resource == "" || name == "" {
		writeError(w, apierrors.NewBadRequest("resource and name are required"))
		return
	}
	verb := q.Get("verb")
	if verb == "" {
		verb = "create"
	}
	v := sequenceView{Tracing: s.tracing != nil, Lanes: lanes, Steps: []step{}}
	if s.tracing == nil {
		v.Message = tracingOff
		writeJSON(w, v)
		return
	}
	spans := s.tracing.Recorder().Spans()
	req, ok := tracing.FindRequest(spans, verb, resource, q.Get("namespace"), name)
	if !ok {
		v.Message = "no traced " + verb + " of " + resource + " " + name + " among the last spans"
		writeJSON(w, v)
		return
	}
	v.Found = true
	v.Steps = steps(tracing.Timeline(spans, req.SpanContext().SpanID()))
	writeJSON(w, v)
}

// tracingOff is what the diagram and the scheduling panel say when the
// cluster traces nothing.
const tracingOff = "tracing is off: start the cluster with tracing (minicp up --trace) to see requests travel"

// steps places a timeline's spans in lanes. Every span comes after its
// causes, so a cause's lane is known when its effect is placed.
func steps(timeline []tracing.Step) []step {
	out := make([]step, 0, len(timeline))
	laneByID := map[trace.SpanID]string{}
	// lastChild[p] is the lane of p's latest child placed: a request's
	// hops follow one another (authn, then authz, ...), so each arrow
	// starts where the one before it ended.
	lastChild := map[trace.SpanID]string{}
	if len(timeline) == 0 {
		return out
	}
	t0 := timeline[0].Span.StartTime()
	for _, ts := range timeline {
		s := ts.Span
		causeLane, from := "", ""
		if p := s.Parent(); p.IsValid() {
			causeLane = laneByID[p.SpanID()]
			from = lastChild[p.SpanID()]
		}
		for _, l := range s.Links() {
			if causeLane != "" {
				break
			}
			causeLane = laneByID[l.SpanContext.SpanID()]
		}
		attrs := attrMap(s.Attributes())
		ln := laneOf(s.Name(), ts.Component(), attrs[string(tracing.KeyResource)], causeLane)
		laneByID[s.SpanContext().SpanID()] = ln
		if p := s.Parent(); p.IsValid() {
			lastChild[p.SpanID()] = ln
		}
		if from == "" {
			from = causeLane
		}
		st := step{
			ID: s.SpanContext().SpanID().String(), Hop: s.Name(), Component: ts.Component(),
			From: from, Lane: ln, Depth: ts.Depth,
			OffsetMS: ms(s.StartTime().Sub(t0)), TookMS: ms(s.EndTime().Sub(s.StartTime())),
			Attrs: attrs, Error: s.Status().Description,
		}
		if st.From == "" {
			st.From = ln
		}
		out = append(out, st)
	}
	return out
}

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// ms is d in milliseconds with microseconds kept: hops take micro- to
// milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// requestView is one traced write the page offers to draw.
type requestView struct {
	Verb      string `json:"verb"`
	Resource  string `json:"resource"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// maxRequests is how many requests the picker offers, newest first.
const maxRequests = 40

// serveRequests serves GET /api/requests: the latest traced writes sent
// from outside the cluster's components (the root of a trace), newest
// first, one per verb and object. Leases and node status, which the
// kubelets write every few seconds, are left out.
func (s *Server) serveRequests(w http.ResponseWriter, _ *http.Request) {
	out := []requestView{}
	if s.tracing != nil {
		seen := map[requestView]bool{}
		spans := s.tracing.Recorder().Spans()
		for i := len(spans) - 1; i >= 0 && len(out) < maxRequests; i-- {
			sp := spans[i]
			if sp.Name() != tracing.HopRequest || sp.Parent().IsValid() {
				continue
			}
			rv, ok := writeOf(sp)
			if !ok || seen[rv] {
				continue
			}
			seen[rv] = true
			out = append(out, rv)
		}
	}
	writeJSON(w, map[string]any{"tracing": s.tracing != nil, "requests": out})
}

// writeOf returns the write a request span records; ok is false for a
// read, or a write the picker leaves out.
func writeOf(sp sdktrace.ReadOnlySpan) (requestView, bool) {
	var rv requestView
	for _, kv := range sp.Attributes() {
		switch kv.Key {
		case tracing.KeyVerb:
			rv.Verb = kv.Value.AsString()
		case tracing.KeyResource:
			rv.Resource = kv.Value.AsString()
		case tracing.KeyNamespace:
			rv.Namespace = kv.Value.AsString()
		case tracing.KeyName:
			rv.Name = kv.Value.AsString()
		}
	}
	switch {
	case rv.Name == "", rv.Resource == "leases", rv.Resource == "nodes/status", rv.Resource == "events":
		return rv, false
	case rv.Verb == "create", rv.Verb == "update", rv.Verb == "patch", rv.Verb == "delete":
		return rv, true
	}
	return rv, false
}
