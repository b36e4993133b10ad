package workqueue_test

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/informer/workqueue"
)

// series returns the only series of the metric name in reg (the tests
// run one queue).
func series(t *testing.T, reg *prometheus.Registry, name string) *dto.Metric {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() == name {
			require.Len(t, f.GetMetric(), 1, name)
			assert.Equal(t, "q", f.GetMetric()[0].GetLabel()[0].GetValue(), "%s is labelled by the queue's name", name)
			return f.GetMetric()[0]
		}
	}
	require.Failf(t, "no series", "%s", name)
	return nil
}

// TestQueueMetrics walks one key through a queue on a fake clock and
// reads each workqueue_* series.
func TestQueueMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := workqueue.NewMetrics(reg)
	require.NoError(t, err)
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := workqueue.NewDelaying[string](workqueue.DelayingOptions{Name: "q", Metrics: m, Clock: clk})
	defer q.ShutDown()

	q.Add("a")
	q.Add("a") // folded: not an add
	q.Add("b")
	assert.Equal(t, 2.0, series(t, reg, "workqueue_depth").GetGauge().GetValue(), "two keys wait")
	clk.Step(3 * time.Second)
	key, _ := q.Get()
	require.Equal(t, "a", key)
	clk.Step(time.Second)
	q.Done(key)
	q.AddAfter("c", time.Minute)

	assert.Equal(t, 1.0, series(t, reg, "workqueue_depth").GetGauge().GetValue(), "b still waits")
	assert.Equal(t, 2.0, series(t, reg, "workqueue_adds_total").GetCounter().GetValue(), "a and b were added")
	assert.Equal(t, 1.0, series(t, reg, "workqueue_retries_total").GetCounter().GetValue(), "AddAfter is a retry")
	h := series(t, reg, "workqueue_queue_duration_seconds").GetHistogram()
	assert.Equal(t, uint64(1), h.GetSampleCount(), "one key taken")
	assert.Equal(t, 3.0, h.GetSampleSum(), "a waited 3s from its first add")
	h = series(t, reg, "workqueue_work_duration_seconds").GetHistogram()
	assert.Equal(t, uint64(1), h.GetSampleCount(), "one key done")
	assert.Equal(t, 1.0, h.GetSampleSum(), "a was processed for 1s")
}

// TestNewMetricsTwice checks that a registry holds one set of workqueue
// metrics: a second NewMetrics on it fails instead of double counting.
func TestNewMetricsTwice(t *testing.T) {
	reg := prometheus.NewRegistry()
	_, err := workqueue.NewMetrics(reg)
	require.NoError(t, err)
	_, err = workqueue.NewMetrics(reg)
	assert.Error(t, err)
}
