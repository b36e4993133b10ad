package kubelet_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
)

// summary reads the kubelet's /stats/summary.
func (h *harness) summary() *statsv1alpha1.Summary {
	h.t.Helper()
	u := "http://" + h.kl.LogAddr().String() + "/stats/summary"
	req, err := http.NewRequestWithContext(h.t.Context(), http.MethodGet, u, nil)
	require.NoError(h.t, err)
	resp, err := logClient.Do(req)
	require.NoError(h.t, err, "GET %s", u)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err)
	require.Equal(h.t, http.StatusOK, resp.StatusCode, "%s", body)
	var s statsv1alpha1.Summary
	require.NoError(h.t, json.Unmarshal(body, &s), "%s", body)
	return &s
}

// TestStatsSummary: the kubelet reports its running pods' usage, the same
// within a window on the fake clock, and the node's as theirs plus its
// own.
func TestStatsSummary(t *testing.T) {
	h := newHarness(t)
	pod := busybox("busy", corev1.RestartPolicyNever, "sleep 3600")
	pod.Spec.Containers[0].Resources.Requests = corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi"),
	}
	h.run(pod)
	h.run(busybox("done", corev1.RestartPolicyNever, "true"))
	h.waitPod("busy", "Running", phaseIs(corev1.PodRunning))
	h.waitPod("done", "Succeeded", phaseIs(corev1.PodSucceeded))
	// The API has the Running status a moment before the kubelet's
	// worker has the answer to its write, and the summary measures what
	// the kubelet knows: wait for the worker to finish.
	h.waitIdle()

	s := h.summary()
	assert.Equal(t, "node-1", s.Node.NodeName)
	require.Len(t, s.Pods, 1, "only the running pod is measured")
	ps := s.Pods[0]
	assert.Equal(t, "busy", ps.PodRef.Name)
	require.Len(t, ps.Containers, 1)
	cpu := *ps.Containers[0].CPU.UsageNanoCores / 1e6
	assert.True(t, cpu >= 150 && cpu <= 400, "30%%-80%% of the 500m request: %dm", cpu)
	assert.Greater(t, *s.Node.CPU.UsageNanoCores, *ps.CPU.UsageNanoCores, "the node adds its own share")
	assert.Equal(t, s, h.summary(), "the same window measures the same")

	h.clock.Step(5 * time.Minute)
	later := h.summary()
	assert.True(t, later.Node.CPU.Time.After(s.Node.CPU.Time.Time), "a later window")
	assert.Greater(t, *later.Pods[0].Memory.WorkingSetBytes, *ps.Memory.WorkingSetBytes, "the working set warmed up")
}
