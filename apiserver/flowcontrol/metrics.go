package flowcontrol

import "github.com/prometheus/client_golang/prometheus"

// metrics are the flow control metrics, with upstream's names and labels.
type metrics struct {
	inQueue    *prometheus.GaugeVec
	executing  *prometheus.GaugeVec
	rejected   *prometheus.CounterVec
	dispatched *prometheus.CounterVec
}

// The reason label of apiserver_flowcontrol_rejected_requests_total, as
// upstream spells it.
var rejectReasons = map[outcome]string{
	rejectedQueueFull:        "queue-full",
	rejectedConcurrencyLimit: "concurrency-limit",
	rejectedTimeout:          "time-out",
	rejectedCancelled:        "cancelled",
	rejectedConfig:           "queue-full",
}

func newMetrics(reg prometheus.Registerer) *metrics {
	labels := []string{"priority_level", "flow_schema"}
	m := &metrics{
		inQueue: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_flowcontrol_current_inqueue_requests",
			Help: "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
		}, labels),
		executing: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_flowcontrol_current_executing_seats",
			Help: "Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem",
		}, labels),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_flowcontrol_rejected_requests_total",
			Help: "Number of requests rejected by API Priority and Fairness subsystem",
		}, append(labels, "reason")),
		dispatched: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_flowcontrol_dispatched_requests_total",
			Help: "Number of requests executed by API Priority and Fairness subsystem",
		}, labels),
	}
	if reg != nil {
		reg.MustRegister(m.inQueue, m.executing, m.rejected, m.dispatched)
	}
	return m
}

// flowMetrics are the metrics of one schema and its level, looked up once
// per configuration rather than once per request.
type flowMetrics struct {
	inQueue, executing prometheus.Gauge
	dispatched         prometheus.Counter
	level, schema      string
	rejected           *prometheus.CounterVec
}

func (m *metrics) forFlow(level, schema string) flowMetrics {
	return flowMetrics{
		inQueue:    m.inQueue.WithLabelValues(level, schema),
		executing:  m.executing.WithLabelValues(level, schema),
		dispatched: m.dispatched.WithLabelValues(level, schema),
		level:      level, schema: schema, rejected: m.rejected,
	}
}

func (f flowMetrics) reject(o outcome) {
	f.rejected.WithLabelValues(f.level, f.schema, rejectReasons[o]).Inc()
}
