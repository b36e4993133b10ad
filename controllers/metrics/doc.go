// Package metrics defines the metrics of a Manager's controllers under
// controller-runtime's names: reconciles by controller and result, their
// errors and durations, and each controller's work queue (workqueue_*,
// labelled by the controller's name). A Manager given a registry
// (manager.Options.MetricsRegistry) creates one Metrics on it and every
// controller it runs records into it; the cluster serves that registry on
// the API server's /metrics.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/metrics and
// pkg/internal/controller/metrics, which use one global registry; here
// each Manager has its own, since many clusters share a test process.
package metrics
