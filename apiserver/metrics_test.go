package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/audit"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/authz/rbac/bootstrappolicy"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/apiserver/request"
)

// metricValue is the value of the counter, gauge or histogram count of
// the series of name whose labels include want; it fails t if there is
// no such series.
func metricValue(t *testing.T, g prometheus.Gatherer, name string, want map[string]string) float64 {
	t.Helper()
	families, err := g.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if labels[k] != v {
					continue series
				}
			}
			return value(m)
		}
	}
	require.Failf(t, "no series", "%s%v", name, want)
	return 0
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Histogram != nil:
		return float64(m.GetHistogram().GetSampleCount())
	}
	return 0
}

// TestMetrics makes requests and reads /metrics: each request is counted
// under upstream's labels, with its latency, its etcd requests and the
// objects it stored.
func TestMetrics(t *testing.T) {
	s := newTestServer(t)
	pod := s.createPod("web", nil)
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/web", "")
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/web", "")
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/nope", "")
	// A list from the cache at least as fresh as the create: the cache
	// counts the pod by then.
	s.waitCached("/api/v1/namespaces/default/pods", pod.ResourceVersion)

	g := s.api.MetricsGatherer()
	pods := map[string]string{"group": "", "version": "v1", "resource": "pods", "subresource": "", "component": "apiserver", "dry_run": ""}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range pods {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	assert.Equal(t, 1.0, metricValue(t, g, "apiserver_request_total", with("verb", "POST", "scope", "resource", "code", "201")))
	assert.Equal(t, 2.0, metricValue(t, g, "apiserver_request_total", with("verb", "GET", "scope", "resource", "code", "200")))
	assert.Equal(t, 1.0, metricValue(t, g, "apiserver_request_total", with("verb", "GET", "scope", "resource", "code", "404")))
	assert.Equal(t, 1.0, metricValue(t, g, "apiserver_request_total", with("verb", "LIST", "scope", "namespace", "code", "200")))
	assert.Equal(t, 3.0, metricValue(t, g, "apiserver_request_duration_seconds", with("verb", "GET", "scope", "resource")))
	assert.GreaterOrEqual(t, metricValue(t, g, "etcd_request_duration_seconds", map[string]string{"operation": "create", "type": "pods"}), 1.0)
	assert.Equal(t, 1.0, metricValue(t, g, "apiserver_storage_objects", map[string]string{"resource": "pods"}))
	assert.Equal(t, 0.0, metricValue(t, g, "apiserver_current_inflight_requests", map[string]string{"request_kind": "mutating"}))

	r := s.mustDo(http.StatusOK, "GET", "/metrics", "")
	assert.Contains(t, r.header.Get("Content-Type"), "text/plain", "the Prometheus text format")
	assert.True(t, strings.Contains(string(r.body), `apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 1`),
		"/metrics has the create's series")
}

// TestMetricsGathersExtra checks that /metrics serves the metrics of
// Options.MetricsGatherer next to the server's own.
func TestMetricsGathersExtra(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewGauge(prometheus.GaugeOpts{Name: "workqueue_depth", Help: "x"}))
	s := newTestServer(t, func(o *apiserver.Options) { o.MetricsGatherer = reg })
	s.mustDo(http.StatusOK, "GET", "/version", "")
	body := string(s.mustDo(http.StatusOK, "GET", "/metrics", "").body)
	assert.True(t, strings.Contains(body, "\nworkqueue_depth 0\n"), "the extra gatherer's metric is served")
	assert.True(t, strings.Contains(body, "\napiserver_request_total{"), "the server's own metrics are served")
}

// TestMonitoringRole checks the default RBAC policy: the system:monitoring
// group reads /metrics and the health checks, and no other path; other
// users read none of them but the health checks.
func TestMonitoringRole(t *testing.T) {
	const promToken = "prometheus-token"
	s := newTestServer(t, func(o *apiserver.Options) {
		o.AuthorizationMode = authz.ModeRBAC
		o.Authenticator = authn.Union{o.Authenticator, authn.NewTokenFile([]authn.TokenUser{
			{Token: promToken, User: request.User{Name: "prometheus", Groups: []string{bootstrappolicy.MonitoringGroup}}},
			{Token: aliceToken, User: request.User{Name: "alice"}},
		})}
	})
	asProm, asAlice := withToken(promToken), withToken(aliceToken)
	s.mustDo(http.StatusOK, "GET", "/metrics", "", asProm)
	s.mustDo(http.StatusOK, "GET", "/readyz?verbose", "", asProm)
	s.mustDo(http.StatusForbidden, "GET", "/debug/pprof/", "", asProm)
	s.mustDo(http.StatusForbidden, "GET", "/metrics", "", asAlice)
	s.mustDo(http.StatusOK, "GET", "/healthz", "", asAlice)
	s.mustDo(http.StatusOK, "GET", "/debug/pprof/", "")
}

// TestProfiling checks /debug/pprof: the index, a named profile, and
// DisableProfiling.
func TestProfiling(t *testing.T) {
	s := newTestServer(t)
	assert.Contains(t, string(s.mustDo(http.StatusOK, "GET", "/debug/pprof/", "").body), "goroutine")
	assert.Contains(t, string(s.mustDo(http.StatusOK, "GET", "/debug/pprof/goroutine?debug=1", "").body), "goroutine profile")
	assert.NotEmpty(t, s.mustDo(http.StatusOK, "GET", "/debug/pprof/heap", "").body)

	off := newTestServer(t, func(o *apiserver.Options) { o.DisableProfiling = true })
	off.mustDo(http.StatusNotFound, "GET", "/debug/pprof/", "")
}

// TestAuditSink checks the Event of a create, as kube-apiserver's audit
// log writes it, and that the response names it in Audit-Id.
func TestAuditSink(t *testing.T) {
	var mu sync.Mutex
	var events []*audit.Event
	s := newTestServer(t, func(o *apiserver.Options) {
		o.AuditSink = audit.SinkFunc(func(evs ...*audit.Event) bool {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, evs...)
			return true
		})
	})
	r := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods?fieldManager=test", podJSON("audited", nil))
	id := r.header.Get(filters.AuditIDHeader)
	require.NotEmpty(t, id, "Audit-Id header")

	mu.Lock()
	defer mu.Unlock()
	var ev *audit.Event
	for _, e := range events {
		if e.AuditID == id {
			ev = e
		}
	}
	require.NotNil(t, ev, "an event with the response's Audit-Id")
	var b strings.Builder
	require.True(t, audit.NewWriterSink(&b).ProcessEvents(ev))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(b.String()), &got), "one JSON object per line: %s", b.String())
	assert.True(t, strings.HasSuffix(b.String(), "}\n"), "a line")
	assert.Equal(t, "audit.k8s.io/v1", got["apiVersion"])
	assert.Equal(t, "Event", got["kind"])
	assert.Equal(t, "Metadata", got["level"])
	assert.Equal(t, "ResponseComplete", got["stage"])
	assert.Equal(t, "create", got["verb"])
	assert.Equal(t, "/api/v1/namespaces/default/pods?fieldManager=test", got["requestURI"])
	assert.Equal(t, map[string]any{"resource": "pods", "namespace": "default", "apiVersion": "v1"}, got["objectRef"])
	assert.Equal(t, map[string]any{"metadata": map[string]any{}, "code": float64(201)}, got["responseStatus"])
	assert.Equal(t, "admin", got["user"].(map[string]any)["username"])
	assert.NotEmpty(t, got["requestReceivedTimestamp"])
	assert.Equal(t, fmt.Sprint(got["auditID"]), id)
}
