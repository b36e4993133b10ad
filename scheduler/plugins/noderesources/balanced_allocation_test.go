package noderesources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins/noderesources"
)

// TestBalancedAllocationScore checks (1 - |cpuFraction - memFraction|/2)
// * 100, rounded down, against values computed by hand.
func TestBalancedAllocationScore(t *testing.T) {
	pl, err := noderesources.NewBalancedAllocation()
	require.NoError(t, err)
	ba := pl.(*noderesources.BalancedAllocation)

	nodeA := node4x8() // 4 cpu, 8Gi; 1 cpu and 2Gi requested
	nodeB := framework.NewNodeInfo(st.MakeNode().Name("b").Capacity(rl{"cpu": "2", "memory": "16Gi", "pods": "10"}).Obj())
	bestEffortOnB := framework.NewNodeInfo(st.MakeNode().Name("b").Capacity(rl{"cpu": "2", "memory": "16Gi", "pods": "10"}).Obj(),
		st.MakePod().Name("be").Req(nil).Obj())
	tests := []struct {
		name     string
		pod      *corev1.Pod
		nodeInfo *framework.NodeInfo
		want     int64
	}{
		// cpu 2/4 = 0.5, memory 3/8 = 0.375: std 0.0625, 93.75.
		{name: "node A", pod: st.MakePod().Req(rl{"cpu": "1", "memory": "1Gi"}).Obj(), nodeInfo: nodeA, want: 93},
		// cpu 1/2 = 0.5, memory 1/16 = 0.0625: std 0.21875, 78.125.
		{name: "node B", pod: st.MakePod().Req(rl{"cpu": "1", "memory": "1Gi"}).Obj(), nodeInfo: nodeB, want: 78},
		// Same fractions: perfectly balanced.
		{name: "balanced", pod: st.MakePod().Req(rl{"cpu": "1", "memory": "8Gi"}).Obj(), nodeInfo: nodeB, want: 100},
		// cpu 3/2 capped at 1, memory 0: std 0.5.
		{name: "fractions are capped at 1", pod: st.MakePod().Req(rl{"cpu": "3"}).Obj(), nodeInfo: nodeB, want: 50},
		// Existing pods count their actual requests (none), not the
		// scoring defaults: cpu 1/2, memory 8/16.
		{name: "best-effort pods on the node count nothing", pod: st.MakePod().Req(rl{"cpu": "1", "memory": "8Gi"}).Obj(), nodeInfo: bestEffortOnB, want: 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := framework.NewCycleState()
			require.Nil(t, ba.PreScore(t.Context(), state, tc.pod, nil), "PreScore")
			got, status := ba.Score(t.Context(), state, tc.pod, tc.nodeInfo)
			require.Nil(t, status)
			assert.Equal(t, tc.want, got, "Score")
			again, _ := ba.Score(t.Context(), framework.NewCycleState(), tc.pod, tc.nodeInfo)
			assert.Equal(t, got, again, "Score without PreScore")
		})
	}

	bestEffort := st.MakePod().Req(nil).Obj()
	assert.Equal(t, framework.Skip, ba.PreScore(t.Context(), framework.NewCycleState(), bestEffort, nil).Code(),
		"a pod that requests nothing is not scored")
	got, status := ba.Score(t.Context(), framework.NewCycleState(), bestEffort, nodeA)
	assert.Nil(t, status)
	assert.Zero(t, got)
	assert.Nil(t, ba.ScoreExtensions())
}
