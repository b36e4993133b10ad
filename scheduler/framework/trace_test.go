package framework_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins"
)

// TestTraceRecords: at Debug, a cycle logs the scheduler.filter hop with
// each node's filter result and the scheduler.score hop with each
// feasible node's per-plugin and total scores, so a flow printer can show
// them.
func TestTraceRecords(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f, err := framework.New(framework.Options{Profile: config.Default().Profiles[0], Registry: plugins.NewInTreeRegistry(), Logger: logger})
	require.NoError(t, err)
	capacity := map[corev1.ResourceName]string{"cpu": "4", "memory": "8Gi", "pods": "110"}
	nodes := []*framework.NodeInfo{
		framework.NewNodeInfo(st.MakeNode().Name("a").Capacity(capacity).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("b").Capacity(capacity).Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("c").Capacity(capacity).Obj(),
			st.MakePod().Name("busy").UID("busy").Node("c").Req(map[corev1.ResourceName]string{"cpu": "2"}).Obj()),
	}
	pod := st.MakePod().Name("web").Req(map[corev1.ResourceName]string{"cpu": "1", "memory": "1Gi"}).Obj()
	res, err := f.SchedulePod(t.Context(), pod, nodes, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, "a", res.SuggestedHost, "the empty node wins")

	records := map[string]map[string]any{}
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var rec map[string]any
		require.NoError(t, dec.Decode(&rec))
		records[rec["hop"].(string)] = rec
	}
	filter := records["scheduler.filter"]
	require.NotNil(t, filter, "a scheduler.filter record")
	assert.Equal(t, "web", filter["pod"])
	assert.Equal(t, map[string]any{
		"a": framework.FilterResultFit,
		"b": "TaintToleration: node(s) had untolerated taint {dedicated: gpu}",
		"c": framework.FilterResultFit,
	}, filter["results"])

	score := records["scheduler.score"]
	require.NotNil(t, score, "a scheduler.score record")
	assert.Equal(t, "a", score["node"])
	scores := score["scores"].(map[string]any)
	require.Contains(t, scores, "a")
	require.Contains(t, scores, "c")
	assert.NotContains(t, scores, "b", "only feasible nodes are scored")
	a := scores["a"].(map[string]any)
	// NodeAffinity skips scoring a pod with no preferred affinity.
	for _, plugin := range []string{"TaintToleration", "NodeResourcesFit", "NodeResourcesBalancedAllocation", "total"} {
		assert.Contains(t, a, plugin, "node a's scores")
	}
	assert.Greater(t, a["total"].(float64), scores["c"].(map[string]any)["total"].(float64), "a beats the busier c")
}
