package apiserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/tracing"
)

// tracesPath is where a traced server serves the timelines of requests
// (see serveTraces); `minicp trace` reads it.
const tracesPath = "/debug/traces/{resource}/{name}"

// serveTraces serves GET /debug/traces/{resource}/{name}?namespace=&verb=&until=:
// the timeline of the earliest traced request that did verb (default
// create) to the object, and of everything it caused, as text. With
// until (a hop such as kubelet.sync) it waits, up to tracesWaitTimeout,
// until the request is traced and its timeline holds that hop, so a
// trace asked for right after the request is complete. {resource}
// is what kubectl accepts: the resource, its singular, a short name or
// the kind, in any case. namespace defaults to "default" for a
// namespaced resource. It sits behind authentication and authorization
// like /debug/pprof.
func (s *Server) serveTraces(w http.ResponseWriter, r *http.Request) {
	vars := mux.Vars(r)
	info, ok := s.resolveResource(vars["resource"])
	if !ok {
		responsewriters.WriteError(w, r, apierrors.NewNotFound(runtime.GroupResource{Resource: vars["resource"]}, ""))
		return
	}
	q := r.URL.Query()
	verb := q.Get("verb")
	if verb == "" {
		verb = "create"
	}
	ns := q.Get("namespace")
	if info.Namespaced && ns == "" {
		ns = "default"
	}
	if !info.Namespaced {
		ns = ""
	}
	until := q.Get("until")
	// A wait for a hop is request latency: it runs on the real clock, as
	// the watch cache's wait for a revision does, even when a test drives
	// the server's clock.
	timeout := clock.Real.NewTimer(tracesWaitTimeout)
	defer timeout.Stop()
	for {
		changed := s.tracing.Recorder().Changed()
		spans := s.tracing.Recorder().Spans()
		req, found := tracing.FindRequest(spans, verb, info.GVR.Resource, ns, vars["name"])
		var steps []tracing.Step
		if found {
			steps = tracing.Timeline(spans, req.SpanContext().SpanID())
		}
		if found && (until == "" || hasHop(steps, until)) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_ = tracing.Print(w, steps)
			return
		}
		if until != "" {
			select {
			case <-changed:
				continue
			case <-r.Context().Done():
			case <-timeout.C():
			}
		}
		if found {
			// The hop did not come: what there is, which says how far
			// the request got.
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_ = tracing.Print(w, steps)
			return
		}
		what := info.GVR.Resource + " " + vars["name"]
		if ns != "" {
			what = fmt.Sprintf("%s %s/%s", info.GVR.Resource, ns, vars["name"])
		}
		se := apierrors.NewNotFound(info.GVR.GroupResource(), vars["name"])
		se.ErrStatus.Message = fmt.Sprintf("no traced %s of %s among the last %d spans", verb, what, len(spans))
		responsewriters.WriteError(w, r, se)
		return
	}
}

// tracesWaitTimeout bounds how long /debug/traces waits for the request,
// or for the hop ?until= names: a pod's path to its node takes
// milliseconds, a Job's or a Deployment's rollout seconds.
const tracesWaitTimeout = 30 * time.Second

// hasHop reports whether steps hold a span named hop.
func hasHop(steps []tracing.Step, hop string) bool {
	return slices.ContainsFunc(steps, func(s tracing.Step) bool { return s.Span.Name() == hop })
}

// resolveResource finds the served resource that name names as kubectl
// would: resource, singular, short name or kind, ignoring case; the
// first group in discovery's order wins a tie, as kubectl's does.
func (s *Server) resolveResource(name string) (runtime.ResourceInfo, bool) {
	name = strings.ToLower(name)
	s.mu.RLock()
	defer s.mu.RUnlock()
	var found []runtime.ResourceInfo
	for _, r := range s.resources {
		i := r.info
		if i.GVR.Resource == name || i.SingularName == name || strings.ToLower(i.Kind) == name || slices.Contains(i.ShortNames, name) {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return runtime.ResourceInfo{}, false
	}
	slices.SortFunc(found, func(a, b runtime.ResourceInfo) int {
		// The core group first, then by name: a stable choice.
		return strings.Compare(a.GVR.Group+"/"+a.GVR.Version, b.GVR.Group+"/"+b.GVR.Version)
	})
	return found[0], true
}
