package webview

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/tracing"
)

// schedulingView is the body of GET /api/scheduling: the latest traced
// scheduling cycle of a pod, node by node.
type schedulingView struct {
	Tracing bool   `json:"tracing"`
	Found   bool   `json:"found"`
	Message string `json:"message,omitempty"`
	Pod     string `json:"pod"`
	// Node is the node the cycle chose; "" when none fit.
	Node     string `json:"node"`
	Feasible int    `json:"feasible"`
	// Bound is set when the binding the cycle started succeeded.
	Bound bool `json:"bound"`
	// Plugins are the score plugins, in the order they scored.
	Plugins []string         `json:"plugins"`
	Nodes   []nodeScheduling `json:"nodes"`
	Error   string           `json:"error,omitempty"`
}

// nodeScheduling is one node's part in a cycle: the filter's verdict
// ("fit", or the plugin that rejected it and why) and each plugin's
// weighted score.
type nodeScheduling struct {
	Name   string           `json:"name"`
	Filter string           `json:"filter"`
	Scores map[string]int64 `json:"scores"`
	Total  *int64           `json:"total,omitempty"`
	Chosen bool             `json:"chosen"`
}

// serveScheduling serves GET /api/scheduling?namespace=&name=: the
// decision of the pod's latest traced scheduling cycle, from the
// attributes of the scheduler's filter, score and bind spans.
func (s *Server) serveScheduling(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ns, name := q.Get("namespace"), q.Get("name")
	if name == "" {
		writeError(w, apierrors.NewBadRequest("name is required"))
		return
	}
	if ns == "" {
		ns = "default"
	}
	v := schedulingView{Tracing: s.tracing != nil, Pod: ns + "/" + name, Plugins: []string{}, Nodes: []nodeScheduling{}}
	if s.tracing == nil {
		v.Message = tracingOff
		writeJSON(w, v)
		return
	}
	spans := s.tracing.Recorder().Spans()
	cycle, ok := latestCycle(spans, ns, name)
	if !ok {
		v.Message = "no traced scheduling cycle of pod " + v.Pod + " among the last spans"
		writeJSON(w, v)
		return
	}
	v.Found = true
	decide(&v, cycle, spans)
	writeJSON(w, v)
}

// latestCycle returns the scheduler.cycle span of pod ns/name that
// started last.
func latestCycle(spans []sdktrace.ReadOnlySpan, ns, name string) (sdktrace.ReadOnlySpan, bool) {
	var found sdktrace.ReadOnlySpan
	for _, sp := range spans {
		if sp.Name() != tracing.HopSchedulerCycle {
			continue
		}
		a := attrMap(sp.Attributes())
		if a[string(tracing.KeyNamespace)] != ns || a[string(tracing.KeyName)] != name {
			continue
		}
		if found == nil || sp.StartTime().After(found.StartTime()) {
			found = sp
		}
	}
	return found, found != nil
}

// decide fills v from the children of cycle: scheduler.filter holds
// "node.<name>" = "fit" or "<plugin>: <reasons>"; scheduler.score holds
// the chosen node and "node.<name>" = "<plugin>=<score> ... total=<sum>"
// (a lone feasible node is chosen unscored); scheduler.bind's status says
// whether the binding failed.
func decide(v *schedulingView, cycle sdktrace.ReadOnlySpan, spans []sdktrace.ReadOnlySpan) {
	var filter, score, bind sdktrace.ReadOnlySpan
	for _, sp := range spans {
		if sp.Parent().SpanID() != cycle.SpanContext().SpanID() {
			continue
		}
		switch sp.Name() {
		case tracing.HopSchedulerFilter:
			filter = sp
		case tracing.HopSchedulerScore:
			score = sp
		case tracing.HopSchedulerBind:
			bind = sp
		}
	}
	if filter != nil {
		for _, kv := range filter.Attributes() {
			if kv.Key == "feasible" {
				v.Feasible = int(kv.Value.AsInt64())
			}
			if n, ok := strings.CutPrefix(string(kv.Key), "node."); ok {
				v.Nodes = append(v.Nodes, nodeScheduling{Name: n, Filter: kv.Value.AsString(), Scores: map[string]int64{}})
			}
		}
	}
	// Pointers into v.Nodes only now that it has stopped growing.
	byNode := make(map[string]*nodeScheduling, len(v.Nodes))
	for i := range v.Nodes {
		byNode[v.Nodes[i].Name] = &v.Nodes[i]
	}
	if score != nil {
		for _, kv := range score.Attributes() {
			switch {
			case kv.Key == tracing.KeyNode:
				v.Node = kv.Value.AsString()
			case kv.Key == "feasible":
				v.Feasible = int(kv.Value.AsInt64())
			case strings.HasPrefix(string(kv.Key), "node."):
				n := byNode[strings.TrimPrefix(string(kv.Key), "node.")]
				if n == nil {
					continue
				}
				for _, f := range strings.Fields(kv.Value.AsString()) {
					plugin, val, _ := strings.Cut(f, "=")
					num, err := strconv.ParseInt(val, 10, 64)
					if err != nil {
						continue
					}
					if plugin == "total" {
						n.Total = &num
						continue
					}
					n.Scores[plugin] = num
					if !slices.Contains(v.Plugins, plugin) {
						v.Plugins = append(v.Plugins, plugin)
					}
				}
			}
		}
	}
	if bind != nil {
		a := attrMap(bind.Attributes())
		if v.Node == "" {
			v.Node = a[string(tracing.KeyNode)]
		}
		v.Bound = bind.Status().Description == ""
		v.Error = bind.Status().Description
	}
	if n := byNode[v.Node]; n != nil {
		n.Chosen = true
	}
	if v.Error == "" {
		v.Error = cycle.Status().Description
	}
}
