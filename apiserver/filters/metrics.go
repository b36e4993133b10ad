package filters

import (
	"net/http"
	"strconv"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/metrics"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// KindFunc returns the kind a resource serves, false for a resource not
// served: how WithMetrics labels watchers by kind, as upstream does.
type KindFunc func(gvr runtime.GroupVersionResource) (kind string, ok bool)

// WithMetrics records every request in m: apiserver_request_total and
// apiserver_request_duration_seconds once it completes (a handler that
// panics counts as a 500), and, while it runs, the in-flight gauge, or
// for a watch or log stream the long-running gauge and, for a watch of a
// served resource, apiserver_registered_watchers. It sits right after
// request info, before authentication, so requests that are refused
// (401, 403, 429) are counted too, as upstream counts them.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/metrics (InstrumentRouteFunc,
// MonitorRequest) and k8s.io/apiserver/pkg/server/filters
// (WithMaxInFlightLimit's in-flight watermarks).
func WithMetrics(h http.Handler, m *metrics.Metrics, kindFor KindFunc, clk clock.Clock) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok {
			h.ServeHTTP(w, r)
			return
		}
		labels := metrics.Labels(r, info)
		if isLongRunning(info) {
			g := m.LongRunning(labels)
			g.Inc()
			defer g.Dec()
			if info.Verb == "watch" {
				gvr := runtime.GroupVersionResource{Group: info.APIGroup, Version: info.APIVersion, Resource: info.Resource}
				if kind, ok := kindFor(gvr); ok {
					wg := m.Watchers(info.APIGroup, info.APIVersion, kind)
					wg.Inc()
					defer wg.Dec()
				}
			}
		} else {
			g := m.InFlight(metrics.RequestKind(info))
			g.Inc()
			defer g.Dec()
		}
		start := clk.Now()
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		completed := false
		defer func() {
			code := rec.code
			if !completed {
				// Panicking: the panic filter answers 500.
				code = http.StatusInternalServerError
			}
			m.ObserveRequest(labels, strconv.Itoa(code), clk.Since(start))
		}()
		h.ServeHTTP(rec, r)
		completed = true
	})
}
