package apiserver

import (
	"net/http"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/metrics"
)

// initMetrics gives the server a registry of its own (never Prometheus'
// global one: many servers share a test process) holding its request and
// etcd metrics and apiserver_storage_objects, and the gatherer /metrics
// serves: those and extra.
func (s *Server) initMetrics(extra prometheus.Gatherer) {
	s.metricsRegistry = prometheus.NewRegistry()
	s.metrics = metrics.New(s.metricsRegistry)
	s.metricsRegistry.MustRegister(storageObjectsCollector{s})
	s.gatherer = s.metricsRegistry
	if extra != nil {
		s.gatherer = prometheus.Gatherers{s.metricsRegistry, extra}
	}
}

// MetricsGatherer returns what /metrics serves: the server's own metrics
// and Options.MetricsGatherer's.
func (s *Server) MetricsGatherer() prometheus.Gatherer { return s.gatherer }

// metricsHandler serves /metrics in the Prometheus text format (or
// whatever format the scraper negotiates). A collector that fails does
// not hide the others' metrics.
//
// Upstream: k8s.io/apiserver/pkg/server/routes (MetricsWithReset).
func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.gatherer, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// kindFor is the filters.KindFunc of the metrics filter.
func (s *Server) kindFor(gvr runtime.GroupVersionResource) (string, bool) {
	info, ok := s.scheme.Resource(gvr)
	return info.Kind, ok
}

// etcdObserver is the storage.StoreOptions.RequestObserver of gr's
// store: it records etcd_request_duration_seconds on the server's clock.
func (s *Server) etcdObserver(gr runtime.GroupResource) func(operation string) func() {
	typ := gr.String()
	return func(operation string) func() {
		start := s.clock.Now()
		return func() { s.metrics.ObserveEtcdRequest(operation, typ, s.clock.Since(start)) }
	}
}

// storageObjectsDesc describes apiserver_storage_objects.
var storageObjectsDesc = prometheus.NewDesc("apiserver_storage_objects",
	"Number of stored objects at the time of last check split by kind.", []string{"resource"}, nil)

// storageObjectsCollector reports apiserver_storage_objects when scraped,
// from the watch caches, which hold every object: upstream counts the
// keys in etcd every minute, which costs a request per resource and is a
// minute late. A resource with no watch cache is not reported, and one
// served at several versions is counted once.
type storageObjectsCollector struct{ s *Server }

// Describe implements prometheus.Collector.
func (c storageObjectsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- storageObjectsDesc }

// Collect implements prometheus.Collector.
func (c storageObjectsCollector) Collect(ch chan<- prometheus.Metric) {
	counts := map[string]int{}
	c.s.mu.RLock()
	for gvr, r := range c.s.resources {
		// Create-only resources (bindings, access reviews) store nothing.
		if r.cacher != nil && slices.Contains(r.info.Verbs, "list") {
			counts[gvr.GroupResource().String()] = r.cacher.Count()
		}
	}
	c.s.mu.RUnlock()
	// Sent without s.mu held: the registry reads ch as it goes.
	for resource, n := range counts {
		ch <- prometheus.MustNewConstMetric(storageObjectsDesc, prometheus.GaugeValue, float64(n), resource)
	}
}
