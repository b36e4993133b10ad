package scheduler

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/minicp/minicp/scheduler/internal/queue"
)

// The values of the result label of scheduler_schedule_attempts_total.
const (
	resultScheduled     = "scheduled"
	resultUnschedulable = "unschedulable"
	resultError         = "error"
)

// metrics are the scheduler's, under kube-scheduler's names: attempts by
// result and profile, and the pods waiting in each part of the queue. A
// nil *metrics records nothing.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/metrics.
type metrics struct {
	attempts *prometheus.CounterVec
}

// pendingPodsDesc describes scheduler_pending_pods.
var pendingPodsDesc = prometheus.NewDesc("scheduler_pending_pods",
	"Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods.",
	[]string{"queue"}, nil)

// newMetrics registers the scheduler's metrics on reg, reading the
// pending pods from q when scraped; nil reg means no metrics. It fails if
// reg has them already: one scheduler per registry.
func newMetrics(reg prometheus.Registerer, q *queue.PriorityQueue) (*metrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &metrics{attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "scheduler_schedule_attempts_total",
		Help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
	}, []string{"result", "profile"})}
	for _, c := range []prometheus.Collector{m.attempts, pendingPodsCollector{q}} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("scheduler: register metrics: %w", err)
		}
	}
	return m, nil
}

// attempt counts one scheduling attempt of profile with result.
func (m *metrics) attempt(result, profile string) {
	if m == nil {
		return
	}
	m.attempts.WithLabelValues(result, profile).Inc()
}

// pendingPodsCollector reports scheduler_pending_pods from the queue's
// counts when scraped: the queue keeps them anyway, so nothing is
// updated on the scheduling path.
type pendingPodsCollector struct{ q *queue.PriorityQueue }

// Describe implements prometheus.Collector.
func (c pendingPodsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- pendingPodsDesc }

// Collect implements prometheus.Collector.
func (c pendingPodsCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.q.Stats()
	for _, p := range []struct {
		queue string
		n     int
	}{{"active", st.Active}, {"backoff", st.Backoff}, {"unschedulable", st.Unschedulable}} {
		ch <- prometheus.MustNewConstMetric(pendingPodsDesc, prometheus.GaugeValue, float64(p.n), p.queue)
	}
}
