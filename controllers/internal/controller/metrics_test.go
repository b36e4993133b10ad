package controller

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/controllers/metrics"
	"github.com/minicp/minicp/controllers/reconcile"
)

// TestMetrics reconciles one Request three times (an error, a requeue
// after a delay, a success) and reads controller-runtime's and the work
// queue's series of the controller.
func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	require.NoError(t, err)
	web := request("web")
	r := newRecorder(func(n int, _ reconcile.Request) (reconcile.Result, error) {
		switch n {
		case 1:
			return reconcile.Result{}, errors.New("first attempt fails")
		case 2:
			return reconcile.Result{RequeueAfter: time.Second}, nil
		}
		return reconcile.Result{}, nil
	})
	c := newTestController(t, r, func(o *Options) { o.Metrics = m })
	c.start(t)
	c.queue.Add(web)
	c.waitIdle(t)
	c.step(t, 5*time.Millisecond) // the first retry's backoff
	c.step(t, time.Second)        // the RequeueAfter
	require.Equal(t, 3, r.count(web))

	want := `
# HELP controller_runtime_reconcile_total Total number of reconciliations per controller
# TYPE controller_runtime_reconcile_total counter
controller_runtime_reconcile_total{controller="test",result="error"} 1
controller_runtime_reconcile_total{controller="test",result="requeue"} 0
controller_runtime_reconcile_total{controller="test",result="requeue_after"} 1
controller_runtime_reconcile_total{controller="test",result="success"} 1
# HELP controller_runtime_reconcile_errors_total Total number of reconciliation errors per controller
# TYPE controller_runtime_reconcile_errors_total counter
controller_runtime_reconcile_errors_total{controller="test"} 1
# HELP workqueue_adds_total Total number of adds handled by workqueue
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="test"} 3
# HELP workqueue_retries_total Total number of retries handled by workqueue
# TYPE workqueue_retries_total counter
workqueue_retries_total{name="test"} 2
# HELP workqueue_depth Current depth of workqueue
# TYPE workqueue_depth gauge
workqueue_depth{name="test"} 0
`
	assert.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(want),
		"controller_runtime_reconcile_total", "controller_runtime_reconcile_errors_total",
		"workqueue_adds_total", "workqueue_retries_total", "workqueue_depth"))
	assert.Equal(t, 1, testutil.CollectAndCount(reg, "controller_runtime_reconcile_time_seconds"),
		"one reconcile-time series, for the controller")
}
