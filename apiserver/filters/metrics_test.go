package filters_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/apiserver/metrics"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
)

func kindFor(gvr runtime.GroupVersionResource) (string, bool) {
	return map[string]string{"pods": "Pod"}[gvr.Resource], gvr.Resource == "pods"
}

// TestWithMetrics drives the filter with fixed answers and reads the
// series it records, with upstream's label values.
func TestWithMetrics(t *testing.T) {
	tests := []struct {
		name, method, path, contentType string
		code                            int
		panics                          bool
		want                            string
	}{
		{name: "get one object", method: "GET", path: "/api/v1/namespaces/default/pods/web", code: 200,
			want: `apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="GET",version="v1"} 1`},
		{name: "list in a namespace", method: "GET", path: "/api/v1/namespaces/default/pods", code: 200,
			want: `apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 1`},
		{name: "list across namespaces", method: "GET", path: "/apis/apps/v1/deployments", code: 200,
			want: `apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="cluster",subresource="",verb="LIST",version="v1"} 1`},
		{name: "create is resource scoped", method: "POST", path: "/api/v1/namespaces/default/pods?dryRun=All", code: 201,
			want: `apiserver_request_total{code="201",component="apiserver",dry_run="All",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 1`},
		{name: "server-side apply", method: "PATCH", path: "/api/v1/namespaces/default/pods/web", contentType: "application/apply-patch+yaml", code: 200,
			want: `apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="APPLY",version="v1"} 1`},
		{name: "status subresource", method: "PUT", path: "/api/v1/namespaces/default/pods/web/status", code: 409,
			want: `apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PUT",version="v1"} 1`},
		{name: "non-resource path", method: "GET", path: "/readyz/etcd", code: 200,
			want: `apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""} 1`},
		{name: "unknown path", method: "GET", path: "/no/such/path", code: 404,
			want: `apiserver_request_total{code="404",component="apiserver",dry_run="",group="",resource="",scope="",subresource="other",verb="GET",version=""} 1`},
		{name: "panic is a 500", method: "DELETE", path: "/api/v1/namespaces/default/pods/web", panics: true,
			want: `apiserver_request_total{code="500",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="DELETE",version="v1"} 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			m := metrics.New(reg)
			inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				assert.Equal(t, 1.0, testutil.ToFloat64(m.InFlight(metrics.RequestKind(mustInfo(t, r)))), "in flight while served")
				if tc.panics {
					panic("boom")
				}
				w.WriteHeader(tc.code)
			})
			h := filters.WithPanicRecovery(filters.WithRequestInfo(filters.WithMetrics(inner, m, kindFor, clock.Real)), logging.Discard)
			req := httptest.NewRequest(tc.method, tc.path, nil)
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			h.ServeHTTP(httptest.NewRecorder(), req)

			got := gatherLines(t, reg, "apiserver_request_total")
			assert.Equal(t, []string{tc.want}, got, "%s %s", tc.method, tc.path)
			assert.Equal(t, 0.0, testutil.ToFloat64(m.InFlight(metrics.ReadOnlyKind))+testutil.ToFloat64(m.InFlight(metrics.MutatingKind)),
				"nothing in flight after the request")
			assert.Equal(t, 1, testutil.CollectAndCount(reg, "apiserver_request_duration_seconds"), "one latency series")
		})
	}
}

// TestWithMetricsWatch checks that a watch counts as long-running and as
// a watcher of its kind while it is open, and not in flight.
func TestWithMetricsWatch(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	labels := metrics.RequestLabels{Verb: "WATCH", Version: "v1", Resource: "pods", Scope: "namespace"}
	inner := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		assert.Equal(t, 1.0, testutil.ToFloat64(m.LongRunning(labels)), "long-running while open")
		assert.Equal(t, 1.0, testutil.ToFloat64(m.Watchers("", "v1", "Pod")), "a Pod watcher while open")
		assert.Equal(t, 0.0, testutil.ToFloat64(m.InFlight(metrics.ReadOnlyKind)), "a watch is not in flight")
	})
	h := filters.WithRequestInfo(filters.WithMetrics(inner, m, kindFor, clock.Real))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/v1/namespaces/default/pods?watch=true", nil))

	assert.Equal(t, 0.0, testutil.ToFloat64(m.LongRunning(labels)), "no long-running request after it ended")
	assert.Equal(t, 0.0, testutil.ToFloat64(m.Watchers("", "v1", "Pod")), "no watcher after it ended")
	assert.Equal(t, 0, testutil.CollectAndCount(reg, "apiserver_request_duration_seconds"), "a watch's lifetime is not a latency")
	assert.Equal(t, 1, testutil.CollectAndCount(reg, "apiserver_request_total"), "a watch is counted")
}

func mustInfo(t *testing.T, r *http.Request) *request.RequestInfo {
	t.Helper()
	info, ok := request.RequestInfoFrom(r.Context())
	require.True(t, ok, "request info in the context")
	return info
}

// gatherLines returns the series of the metric name in reg in the text
// format, one per line.
func gatherLines(t *testing.T, reg *prometheus.Registry, name string) []string {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	var lines []string
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			var b strings.Builder
			b.WriteString(name + "{")
			for i, l := range m.GetLabel() {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "%s=%q", l.GetName(), l.GetValue())
			}
			fmt.Fprintf(&b, "} %g", m.GetCounter().GetValue())
			lines = append(lines, b.String())
		}
	}
	return lines
}

// BenchmarkWithMetrics measures the filter alone around a handler that
// does nothing: its absolute cost per request, next to which
// BenchmarkMetricsFilter in apiserver shows its share of a real GET.
func BenchmarkWithMetrics(b *testing.B) {
	m := metrics.New(prometheus.NewRegistry())
	noop := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	h := filters.WithRequestInfo(filters.WithMetrics(noop, m, kindFor, clock.Real))
	req := httptest.NewRequest("GET", "/api/v1/namespaces/default/pods/target", nil)
	w := httptest.NewRecorder()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}
