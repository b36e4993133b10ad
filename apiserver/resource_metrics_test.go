package apiserver_test

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
)

const metricsAPI = "/apis/metrics.k8s.io/v1beta1"

// statsFor is the summary of a kubelet running pods, each with one
// container "c" using cpuMilli millicores and 1 MiB per millicore.
func statsFor(at time.Time, cpuMilli map[*corev1.Pod]uint64) *statsv1alpha1.Summary {
	ts := metav1.NewTime(at)
	s := &statsv1alpha1.Summary{Node: statsv1alpha1.NodeStats{NodeName: "node-1"}}
	var total uint64
	for pod, m := range cpuMilli {
		nano, ws := m*1e6, m<<20
		total += m
		s.Pods = append(s.Pods, statsv1alpha1.PodStats{
			PodRef: statsv1alpha1.PodReference{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID},
			Containers: []statsv1alpha1.ContainerStats{{Name: "c",
				CPU:    &statsv1alpha1.CPUStats{Time: ts, UsageNanoCores: &nano},
				Memory: &statsv1alpha1.MemoryStats{Time: ts, WorkingSetBytes: &ws}}},
		})
	}
	nano, ws := (total+50)*1e6, (total+300)<<20
	s.Node.CPU = &statsv1alpha1.CPUStats{Time: ts, UsageNanoCores: &nano}
	s.Node.Memory = &statsv1alpha1.MemoryStats{Time: ts, WorkingSetBytes: &ws}
	return s
}

// TestResourceMetrics serves metrics.k8s.io from a kubelet's summary:
// get and list, selectors, metrics-server's 404s, and nothing but reads.
func TestResourceMetrics(t *testing.T) {
	s := newTestServer(t)
	var summary atomic.Pointer[statsv1alpha1.Summary]
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/stats/summary" {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(summary.Load())
	})
	s.createNode("node-1", kl.port(t))
	// node-2's kubelet is gone: its port no longer listens.
	gone := newFakeKubelet(t, http.NotFound)
	port := gone.port(t)
	gone.srv.Close()
	s.createNode("node-2", port)

	a := s.runningPod("a", map[string]string{"app": "a"}, true)
	b := s.runningPod("b", map[string]string{"app": "b"}, true)
	s.createPod("pending", nil)
	at := time.Date(2026, 1, 2, 3, 4, 10, 0, time.UTC)
	summary.Store(statsFor(at, map[*corev1.Pod]uint64{a: 150, b: 20}))

	var pods metricsv1beta1.PodMetricsList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", metricsAPI+"/namespaces/default/pods", "").body, &pods))
	require.Len(t, pods.Items, 2, "the running pods, not the pending one")
	assert.Equal(t, []string{"a", "b"}, []string{pods.Items[0].Name, pods.Items[1].Name}, "by name")
	pa := pods.Items[0]
	assert.Equal(t, map[string]string{"app": "a"}, pa.Labels, "the pod's labels")
	assert.True(t, pa.Timestamp.Equal(at))
	assert.Equal(t, 10*time.Second, pa.Window.Duration)
	require.Len(t, pa.Containers, 1)
	assert.Equal(t, "c", pa.Containers[0].Name)
	assert.Equal(t, "150m", pa.Containers[0].Usage.Cpu().String())
	assert.Equal(t, "150Mi", pa.Containers[0].Usage.Memory().String())

	for _, query := range []string{"labelSelector=app%3Db", "fieldSelector=metadata.name%3Db"} {
		var sel metricsv1beta1.PodMetricsList
		require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", metricsAPI+"/pods?"+query, "").body, &sel))
		require.Len(t, sel.Items, 1, query)
		assert.Equal(t, "b", sel.Items[0].Name, query)
	}

	var one metricsv1beta1.PodMetrics
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", metricsAPI+"/namespaces/default/pods/b", "").body, &one))
	assert.Equal(t, "PodMetrics", one.Kind)
	assert.Equal(t, "20m", one.Containers[0].Usage.Cpu().String())

	var nodes metricsv1beta1.NodeMetricsList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", metricsAPI+"/nodes", "").body, &nodes))
	require.Len(t, nodes.Items, 1, "node-2's kubelet cannot be asked")
	assert.Equal(t, "node-1", nodes.Items[0].Name)
	assert.Equal(t, "220m", nodes.Items[0].Usage.Cpu().String())

	tests := []struct {
		name, method, path string
		code               int
		message            string
	}{
		{"pod that does not exist", "GET", metricsAPI + "/namespaces/default/pods/missing", 404, `pods "missing" not found`},
		{"pod that does not run", "GET", metricsAPI + "/namespaces/default/pods/pending", 404, `podmetrics.metrics.k8s.io "default/pending" not found`},
		{"node that does not exist", "GET", metricsAPI + "/nodes/missing", 404, `node "missing" not found`},
		{"node whose kubelet is gone", "GET", metricsAPI + "/nodes/node-2", 404, `nodemetrics.metrics.k8s.io "node-2" not found`},
		{"create", "POST", metricsAPI + "/namespaces/default/pods", 405, ""},
		{"delete", "DELETE", metricsAPI + "/nodes/node-1", 405, ""},
		{"watch", "GET", metricsAPI + "/pods?watch=true", 405, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do(tc.method, tc.path, `{}`)
			require.Equal(t, tc.code, r.code, "%s %s: %s", tc.method, tc.path, r.body)
			if tc.message != "" {
				assert.Equal(t, tc.message, r.status(t).Message)
			}
		})
	}
}

// TestResourceMetricsDiscovery lists metrics.k8s.io as metrics-server's
// discovery does, and kubectl get's Table has its columns.
func TestResourceMetricsDiscovery(t *testing.T) {
	s := newTestServer(t)
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", metricsAPI, "").body, &list))
	got := map[string]metav1.APIResource{}
	for _, r := range list.APIResources {
		got[r.Name] = r
	}
	require.Contains(t, got, "nodes")
	require.Contains(t, got, "pods")
	assert.Equal(t, "NodeMetrics", got["nodes"].Kind)
	assert.False(t, got["nodes"].Namespaced)
	assert.Equal(t, []string{"get", "list"}, got["pods"].Verbs)
	assert.True(t, got["pods"].Namespaced)

	table := s.mustDo(http.StatusOK, "GET", metricsAPI+"/nodes", "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"))
	var tbl metav1.Table
	require.NoError(t, json.Unmarshal(table.body, &tbl))
	var names []string
	for _, c := range tbl.ColumnDefinitions {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"Name", "cpu", "memory", "Window"}, names)
}
