package metrics

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/minicp/minicp/informer/workqueue"
)

// The values of the result label of controller_runtime_reconcile_total.
const (
	ResultSuccess      = "success"
	ResultError        = "error"
	ResultRequeue      = "requeue"
	ResultRequeueAfter = "requeue_after"
)

// reconcileBuckets are controller-runtime's: fine steps up to a second,
// where most reconciles end, then coarser ones up to a minute.
var reconcileBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8,
	0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60}

// Metrics are the metrics of the controllers of one Manager. Safe for
// concurrent use; a nil *Metrics records nothing.
type Metrics struct {
	reconcileTotal  *prometheus.CounterVec
	reconcileErrors *prometheus.CounterVec
	reconcileTime   *prometheus.HistogramVec
	workqueue       *workqueue.Metrics
}

// New creates the controller and work queue metrics and registers them on
// reg. It fails if reg has them already.
func New(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		reconcileTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "controller_runtime_reconcile_total",
			Help: "Total number of reconciliations per controller",
		}, []string{"controller", "result"}),
		reconcileErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "controller_runtime_reconcile_errors_total",
			Help: "Total number of reconciliation errors per controller",
		}, []string{"controller"}),
		reconcileTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "controller_runtime_reconcile_time_seconds",
			Help:    "Length of time per reconciliation per controller",
			Buckets: reconcileBuckets,
		}, []string{"controller"}),
	}
	for _, c := range []prometheus.Collector{m.reconcileTotal, m.reconcileErrors, m.reconcileTime} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("controller metrics: %w", err)
		}
	}
	wq, err := workqueue.NewMetrics(reg)
	if err != nil {
		return nil, err
	}
	m.workqueue = wq
	return m, nil
}

// Workqueue returns the metrics the controllers' queues record into; nil
// for a nil m.
func (m *Metrics) Workqueue() *workqueue.Metrics {
	if m == nil {
		return nil
	}
	return m.workqueue
}

// InitController makes the series of the controller called name show at
// 0 before its first reconcile, as controller-runtime does, so a rate
// over them starts from the controller's start.
func (m *Metrics) InitController(name string) {
	if m == nil {
		return
	}
	for _, result := range []string{ResultSuccess, ResultError, ResultRequeue, ResultRequeueAfter} {
		m.reconcileTotal.WithLabelValues(name, result)
	}
	m.reconcileErrors.WithLabelValues(name)
}

// ObserveReconcile records one reconcile of the controller called name:
// its result (ResultError also counts an error) and how long it took.
func (m *Metrics) ObserveReconcile(name, result string, elapsed time.Duration) {
	if m == nil {
		return
	}
	m.reconcileTotal.WithLabelValues(name, result).Inc()
	if result == ResultError {
		m.reconcileErrors.WithLabelValues(name).Inc()
	}
	m.reconcileTime.WithLabelValues(name).Observe(elapsed.Seconds())
}
