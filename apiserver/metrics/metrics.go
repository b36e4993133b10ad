package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Component is the value of the component label on the API server's
// request metrics.
const Component = "apiserver"

// The values of the request_kind label of apiserver_current_inflight_requests.
const (
	ReadOnlyKind = "readOnly"
	MutatingKind = "mutating"
)

// latencyBuckets are upstream's buckets of apiserver_request_duration_seconds
// and etcd_request_duration_seconds: fine below a second, where almost all
// requests are, and up to the one-minute request timeout.
var latencyBuckets = []float64{0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60}

// Metrics are one API server's metrics, made by New. Its methods are safe
// for concurrent use.
type Metrics struct {
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	inflight    *prometheus.GaugeVec
	longRunning *prometheus.GaugeVec
	watchers    *prometheus.GaugeVec
	etcd        *prometheus.HistogramVec
}

// New creates the API server's metrics and registers them on reg, which
// must not hold metrics of the same names: give each server a registry
// of its own.
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_total",
			Help: "Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
		}, []string{"verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_request_duration_seconds",
			Help:    "Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
			Buckets: latencyBuckets,
		}, []string{"verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"}),
		inflight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_current_inflight_requests",
			Help: "Number of requests currently being served, by kind (readOnly or mutating); long-running requests are not counted.",
		}, []string{"request_kind"}),
		longRunning: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_longrunning_requests",
			Help: "Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.",
		}, []string{"verb", "group", "version", "resource", "subresource", "scope", "component"}),
		watchers: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_registered_watchers",
			Help: "Number of currently registered watchers for a given resources",
		}, []string{"group", "version", "kind"}),
		etcd: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "etcd_request_duration_seconds",
			Help:    "Etcd request latency in seconds for each operation and object type.",
			Buckets: latencyBuckets,
		}, []string{"operation", "type"}),
	}
	reg.MustRegister(m.requests, m.latency, m.inflight, m.longRunning, m.watchers, m.etcd)
	// Both kinds show from the start, at 0, as upstream's do: a dashboard
	// can tell "none in flight" from "not reported".
	m.inflight.WithLabelValues(ReadOnlyKind)
	m.inflight.WithLabelValues(MutatingKind)
	return m
}

// RequestLabels are the labels of one request's metrics, cleaned as
// upstream cleans them (see Labels in labels.go).
type RequestLabels struct {
	Verb, DryRun, Group, Version, Resource, Subresource, Scope string
}

// ObserveRequest counts one completed request with its response code and
// records its latency. Watch latency is a watch's lifetime, not the
// server's speed, so it goes to the counter only.
func (m *Metrics) ObserveRequest(l RequestLabels, code string, elapsed time.Duration) {
	m.requests.WithLabelValues(l.Verb, l.DryRun, l.Group, l.Version, l.Resource, l.Subresource, l.Scope, Component, code).Inc()
	if l.Verb == "WATCH" {
		return
	}
	m.latency.WithLabelValues(l.Verb, l.DryRun, l.Group, l.Version, l.Resource, l.Subresource, l.Scope, Component).Observe(elapsed.Seconds())
}

// InFlight returns the gauge of requests of kind (ReadOnlyKind or
// MutatingKind) being served.
func (m *Metrics) InFlight(kind string) prometheus.Gauge {
	return m.inflight.WithLabelValues(kind)
}

// LongRunning returns the gauge of open long-running requests (watches,
// log streams) with labels l.
func (m *Metrics) LongRunning(l RequestLabels) prometheus.Gauge {
	return m.longRunning.WithLabelValues(l.Verb, l.Group, l.Version, l.Resource, l.Subresource, l.Scope, Component)
}

// Watchers returns the gauge of open watches of one kind.
func (m *Metrics) Watchers(group, version, kind string) prometheus.Gauge {
	return m.watchers.WithLabelValues(group, version, kind)
}

// ObserveEtcdRequest records how long one etcd request of operation
// ("get", "list", "create", "update", "delete") on the resource typ
// ("pods", "deployments.apps") took.
func (m *Metrics) ObserveEtcdRequest(operation, typ string, elapsed time.Duration) {
	m.etcd.WithLabelValues(operation, typ).Observe(elapsed.Seconds())
}
