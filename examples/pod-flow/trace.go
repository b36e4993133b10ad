package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// tracer is a slog handler that keeps the records of the hops of one
// pod's journey: every record with a "hop" attribute that names the pod
// (or, for the request's own hops, comes while the create is in flight).
type tracer struct {
	pod string

	// mu guards every field below.
	mu      sync.Mutex
	on      bool
	started time.Time
	hops    []hop
}

type hop struct {
	at    time.Time
	name  string
	msg   string
	attrs []string
}

func newTracer(pod string) *tracer { return &tracer{pod: pod} }

func (t *tracer) logger() *slog.Logger { return slog.New(&traceHandler{t: t}) }

// start begins recording: everything before is cluster start-up.
func (t *tracer) start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.on, t.started = true, time.Now()
}

func (t *tracer) add(h hop) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.on {
		t.hops = append(t.hops, h)
	}
}

// print writes the hops in order with their time since the create.
func (t *tracer) print(out io.Writer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(out, "the journey of pod %q\n\n", t.pod)
	for _, h := range t.hops {
		fmt.Fprintf(out, "%9s  %-26s %s", fmt.Sprintf("+%.1fms", float64(h.at.Sub(t.started).Microseconds())/1000), h.name, h.msg)
		if len(h.attrs) > 0 {
			fmt.Fprintf(out, "  %s", strings.Join(h.attrs, " "))
		}
		fmt.Fprintln(out)
	}
}

// traceHandler is the slog.Handler side of a tracer.
type traceHandler struct {
	t     *tracer
	attrs []slog.Attr
}

func (h *traceHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *traceHandler) Handle(_ context.Context, r slog.Record) error {
	var name string
	var attrs []string
	mentionsPod := false
	collect := func(a slog.Attr) bool {
		v := a.Value.String()
		switch a.Key {
		case "hop":
			name = v
			return true
		case "component", "stack":
			return true
		}
		if strings.Contains(v, h.t.pod) {
			mentionsPod = true
		}
		if len(v) > 120 {
			v = v[:117] + "..."
		}
		attrs = append(attrs, a.Key+"="+v)
		return true
	}
	for _, a := range h.attrs {
		collect(a)
	}
	r.Attrs(collect)
	// Request hops (authn, authz, admission) name the path, not always the
	// pod; keep them when they are about pods.
	if name == "" || !(mentionsPod || strings.HasPrefix(name, "auth") && strings.Contains(strings.Join(attrs, " "), "pods")) {
		return nil
	}
	h.t.add(hop{at: r.Time, name: name, msg: r.Message, attrs: attrs})
	return nil
}

func (h *traceHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &traceHandler{t: h.t, attrs: append(append([]slog.Attr{}, h.attrs...), as...)}
}

func (h *traceHandler) WithGroup(string) slog.Handler { return h }
