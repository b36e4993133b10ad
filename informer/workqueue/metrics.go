package workqueue

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// durationBuckets are upstream's buckets of the queue and work durations:
// powers of ten from 10ns to 10s, since a queue's waits span that much.
var durationBuckets = prometheus.ExponentialBuckets(10e-9, 10, 10)

// Metrics are the workqueue_* metrics of every queue that records into
// them, each queue's labelled by its name: how deep it is, how often keys
// are added and retried, how long they wait and how long their work
// takes. Create one per registry with NewMetrics and give it to every
// queue (QueueOptions.Metrics). Safe for concurrent use; a nil *Metrics
// records nothing.
//
// Upstream: k8s.io/component-base/metrics/prometheus/workqueue, the
// names of k8s.io/client-go/util/workqueue's MetricsProvider.
type Metrics struct {
	depth         *prometheus.GaugeVec
	adds          *prometheus.CounterVec
	queueDuration *prometheus.HistogramVec
	workDuration  *prometheus.HistogramVec
	retries       *prometheus.CounterVec
}

// NewMetrics creates the workqueue metrics and registers them on reg. It
// fails if reg has them already: one Metrics serves all the queues of a
// registry.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "workqueue_depth", Help: "Current depth of workqueue",
		}, []string{"name"}),
		adds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workqueue_adds_total", Help: "Total number of adds handled by workqueue",
		}, []string{"name"}),
		queueDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "workqueue_queue_duration_seconds",
			Help:    "How long in seconds an item stays in workqueue before being requested.",
			Buckets: durationBuckets,
		}, []string{"name"}),
		workDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "workqueue_work_duration_seconds",
			Help:    "How long in seconds processing an item from workqueue takes.",
			Buckets: durationBuckets,
		}, []string{"name"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workqueue_retries_total", Help: "Total number of retries handled by workqueue",
		}, []string{"name"}),
	}
	for _, c := range []prometheus.Collector{m.depth, m.adds, m.queueDuration, m.workDuration, m.retries} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("workqueue: register metrics: %w", err)
		}
	}
	return m, nil
}

// Retry counts one retry of the queue called name: a key added back after
// a delay. DelayingQueue.AddAfter counts its own; a queue that keeps its
// delays elsewhere (a controller's) calls Retry itself.
func (m *Metrics) Retry(name string) {
	if m == nil {
		return
	}
	m.retries.WithLabelValues(name).Inc()
}

// queueMetrics are one queue's series of a Metrics, with the times its
// items were added and taken; the Queue's mu guards the maps.
type queueMetrics[T comparable] struct {
	depth         prometheus.Gauge
	adds          prometheus.Counter
	queueDuration prometheus.Observer
	workDuration  prometheus.Observer
	// addTimes holds when each item waiting to be taken was first added;
	// processingStarts when each item being processed was taken.
	addTimes         map[T]time.Time
	processingStarts map[T]time.Time
}

// forQueue returns the series of the queue called name, nil for a nil m.
func forQueue[T comparable](m *Metrics, name string) *queueMetrics[T] {
	if m == nil {
		return nil
	}
	return &queueMetrics[T]{
		depth:            m.depth.WithLabelValues(name),
		adds:             m.adds.WithLabelValues(name),
		queueDuration:    m.queueDuration.WithLabelValues(name),
		workDuration:     m.workDuration.WithLabelValues(name),
		addTimes:         map[T]time.Time{},
		processingStarts: map[T]time.Time{},
	}
}

// add records that item needs processing. An item added again before it
// is taken keeps its first time: its wait started then.
func (m *queueMetrics[T]) add(item T, now time.Time) {
	if m == nil {
		return
	}
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addTimes[item]; !ok {
		m.addTimes[item] = now
	}
}

// get records that a worker took item.
func (m *queueMetrics[T]) get(item T, now time.Time) {
	if m == nil {
		return
	}
	m.depth.Dec()
	if start, ok := m.addTimes[item]; ok {
		m.queueDuration.Observe(now.Sub(start).Seconds())
		delete(m.addTimes, item)
	}
	m.processingStarts[item] = now
}

// done records that the worker finished item.
func (m *queueMetrics[T]) done(item T, now time.Time) {
	if m == nil {
		return
	}
	if start, ok := m.processingStarts[item]; ok {
		m.workDuration.Observe(now.Sub(start).Seconds())
		delete(m.processingStarts, item)
	}
}
