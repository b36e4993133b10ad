// Package metrics serves metrics.k8s.io/v1beta1, the resource metrics
// API `kubectl top` reads: NodeMetrics and PodMetrics, computed on every
// read from the kubelets' /stats/summary. Nothing is stored: each
// resource is a read-only storage.Interface (NodeStorage, PodStorage)
// that the API server's ordinary get and list handlers, selectors,
// tables and content negotiation sit on.
//
// Upstream the API is served by metrics-server, an aggregated API server
// that scrapes the kubelets every 15 seconds and answers from memory;
// minicp folds it into the API server and asks the kubelets when asked,
// as pods/log reaches them (see core.PodLog), so there is no scraper to
// start or to wait for.
//
// Upstream: sigs.k8s.io/metrics-server/pkg/api (nodeMetrics, podMetrics).
package metrics
