// Package metrics defines the API server's Prometheus metrics under
// kube-apiserver's names and labels, so dashboards and alerts written for
// a real cluster read a minicp one: requests by verb, resource, scope and
// code and their latency (recorded by apiserver/filters.WithMetrics, right
// after request info on the request path), requests in flight,
// long-running requests and watchers, each etcd request's latency
// (recorded by the storage layer through a hook), and objects stored per
// resource (read from the watch caches when scraped).
//
// Every Server has a Metrics of its own on a registry of its own, never
// Prometheus' global default registry: many API servers share one test
// process, and each must count only its own requests.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/metrics and
// k8s.io/apiserver/pkg/storage/etcd3/metrics.
package metrics
