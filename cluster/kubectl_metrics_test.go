package cluster_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is the value of the series of name in the Prometheus text
// exposition whose labels include each of labels (`k="v"`), false when
// there is none.
func sample(exposition, name string, labels ...string) (float64, bool) {
lines:
	for line := range strings.SplitSeq(exposition, "\n") {
		if !strings.HasPrefix(line, name+"{") && !strings.HasPrefix(line, name+" ") {
			continue
		}
		series, value, ok := strings.Cut(line, "} ")
		if !ok {
			series, value, _ = strings.Cut(line, " ")
		}
		for _, l := range labels {
			if !strings.Contains(series, l) {
				continue lines
			}
		}
		v, err := strconv.ParseFloat(value, 64)
		return v, err == nil
	}
	return 0, false
}

// TestKubectlGetRawMetrics scrapes /metrics as a user would, with
// `kubectl get --raw /metrics`: the API server's request counts reflect
// kubectl's own requests, and the controllers' and scheduler's metrics
// are served next to them.
func TestKubectlGetRawMetrics(t *testing.T) {
	t.Parallel()
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("get", "pods", "-n", "default")
	k.Run("get", "pods", "-n", "default")
	k.Run("run", "metered", "--image=busybox", "--restart=Never", "--", "sleep", "1")
	k.Run("wait", "--for=condition=PodScheduled", "pod/metered", "--timeout=30s")

	out := k.Run("get", "--raw", "/metrics")
	lists, ok := sample(out, "apiserver_request_total", `resource="pods"`, `scope="namespace"`, `verb="LIST"`, `code="200"`, `component="apiserver"`)
	require.True(t, ok, "apiserver_request_total has kubectl's pod lists")
	assert.GreaterOrEqual(t, lists, 2.0, "both `kubectl get pods` are counted")
	creates, ok := sample(out, "apiserver_request_total", `resource="pods"`, `verb="POST"`, `code="201"`)
	require.True(t, ok, "apiserver_request_total has the pod's create")
	assert.GreaterOrEqual(t, creates, 1.0)
	scheduled, ok := sample(out, "scheduler_schedule_attempts_total", `profile="default-scheduler"`, `result="scheduled"`)
	require.True(t, ok, "scheduler_schedule_attempts_total is served")
	assert.Equal(t, 1.0, scheduled, "the pod was scheduled once")
	for _, series := range [][]string{
		{"apiserver_request_duration_seconds_count", `verb="LIST"`},
		{"apiserver_current_inflight_requests", `request_kind="readOnly"`},
		{"apiserver_registered_watchers", `kind="Pod"`},
		{"apiserver_longrunning_requests", `verb="WATCH"`},
		{"apiserver_storage_objects", `resource="pods"`},
		{"etcd_request_duration_seconds_count", `operation="create"`, `type="pods"`},
		{"workqueue_adds_total", `name="deployment-controller"`},
		{"workqueue_depth", `name="job"`},
		{"controller_runtime_reconcile_total", `controller="serviceaccount"`, `result="success"`},
		{"scheduler_pending_pods", `queue="active"`},
		{"go_goroutines"},
	} {
		_, ok := sample(out, series[0], series[1:]...)
		assert.True(t, ok, "/metrics serves %s%v", series[0], series[1:])
	}
}
