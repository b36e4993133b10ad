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

type rl = map[corev1.ResourceName]string

const gpu = corev1.ResourceName("example.com/gpu")

func newFit(t *testing.T) *noderesources.Fit {
	t.Helper()
	pl, err := noderesources.NewFit()
	require.NoError(t, err)
	return pl.(*noderesources.Fit)
}

// node4x8 is a node with 4 cpus, 8Gi, 10Gi of ephemeral storage, 2 GPUs
// and room for 3 pods, running one pod of 1 cpu and 2Gi.
func node4x8() *framework.NodeInfo {
	node := st.MakeNode().Name("n").Capacity(rl{"cpu": "4", "memory": "8Gi", "ephemeral-storage": "10Gi", gpu: "2", "pods": "3"}).Obj()
	return framework.NewNodeInfo(node, st.MakePod().Name("existing").Req(rl{"cpu": "1", "memory": "2Gi"}).Obj())
}

func TestFitFilter(t *testing.T) {
	tests := []struct {
		name        string
		pod         *corev1.Pod
		nodeInfo    *framework.NodeInfo
		wantCode    framework.Code
		wantReasons []string
	}{
		{name: "fits", pod: st.MakePod().Req(rl{"cpu": "3", "memory": "6Gi"}).Obj(), nodeInfo: node4x8()},
		{name: "requests nothing", pod: st.MakePod().Req(nil).Obj(), nodeInfo: node4x8()},
		{
			name: "short of cpu", pod: st.MakePod().Req(rl{"cpu": "3001m"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.Unschedulable, wantReasons: []string{"Insufficient cpu"},
		},
		{
			name: "short of cpu and memory, one reason each", pod: st.MakePod().Req(rl{"cpu": "3500m", "memory": "7Gi"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.Unschedulable, wantReasons: []string{"Insufficient cpu", "Insufficient memory"},
		},
		{
			name: "more than the node has in all is unresolvable", pod: st.MakePod().Req(rl{"cpu": "5"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.UnschedulableAndUnresolvable, wantReasons: []string{"Insufficient cpu"},
		},
		{
			name: "ephemeral storage", pod: st.MakePod().Req(rl{"ephemeral-storage": "11Gi"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.UnschedulableAndUnresolvable, wantReasons: []string{"Insufficient ephemeral-storage"},
		},
		{
			name: "extended resource", pod: st.MakePod().Req(rl{gpu: "3"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.UnschedulableAndUnresolvable, wantReasons: []string{"Insufficient example.com/gpu"},
		},
		{
			name: "extended resource the node lacks", pod: st.MakePod().Req(rl{"example.com/fpga": "1"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.UnschedulableAndUnresolvable, wantReasons: []string{"Insufficient example.com/fpga"},
		},
		{
			// max(init 3, sum 1+1) = 3 of the 3 cpus left.
			name: "init containers: the largest counts, not the sum", pod: st.MakePod().InitReq(rl{"cpu": "3"}).InitReq(rl{"cpu": "2"}).
				Req(rl{"cpu": "1"}).Req(rl{"cpu": "1"}).Obj(), nodeInfo: node4x8(),
		},
		{
			name: "init container larger than what is left", pod: st.MakePod().InitReq(rl{"cpu": "3500m"}).Req(rl{"cpu": "1"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.Unschedulable, wantReasons: []string{"Insufficient cpu"},
		},
		{
			name: "overhead counts", pod: st.MakePod().Req(rl{"cpu": "3"}).Overhead(rl{"cpu": "1m"}).Obj(), nodeInfo: node4x8(),
			wantCode: framework.Unschedulable, wantReasons: []string{"Insufficient cpu"},
		},
		{
			name: "too many pods, even for a pod that requests nothing",
			pod:  st.MakePod().Req(nil).Obj(),
			nodeInfo: framework.NewNodeInfo(st.MakeNode().Capacity(rl{"cpu": "4", "pods": "2"}).Obj(),
				st.MakePod().Name("a").Obj(), st.MakePod().Name("b").Obj()),
			wantCode: framework.Unschedulable, wantReasons: []string{"Too many pods"},
		},
		{
			name:     "too many pods and short of cpu",
			pod:      st.MakePod().Req(rl{"cpu": "2"}).Obj(),
			nodeInfo: framework.NewNodeInfo(st.MakeNode().Capacity(rl{"cpu": "1", "pods": "0"}).Obj()),
			wantCode: framework.UnschedulableAndUnresolvable, wantReasons: []string{"Too many pods", "Insufficient cpu"},
		},
		{
			name:     "a node reporting no pods allocatable fits none",
			pod:      st.MakePod().Obj(),
			nodeInfo: framework.NewNodeInfo(st.MakeNode().Capacity(rl{"cpu": "1"}).Obj()),
			wantCode: framework.Unschedulable, wantReasons: []string{"Too many pods"},
		},
	}
	pl := newFit(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := framework.NewCycleState()
			require.Nil(t, pl.PreFilter(t.Context(), state, tc.pod), "PreFilter")
			got := pl.Filter(t.Context(), state, tc.pod, tc.nodeInfo)
			assert.Equal(t, tc.wantCode, got.Code(), "Filter: %v", got)
			assert.Equal(t, tc.wantReasons, got.Reasons(), "reasons")

			// Without PreFilter the plugin computes the requests itself.
			again := pl.Filter(t.Context(), framework.NewCycleState(), tc.pod, tc.nodeInfo)
			assert.Equal(t, got, again, "Filter without PreFilter")
		})
	}
}

func TestFits(t *testing.T) {
	got := noderesources.Fits(st.MakePod().Req(rl{"cpu": "3500m", "memory": "1Gi"}).Obj(), node4x8())
	assert.Equal(t, []noderesources.InsufficientResource{{
		ResourceName: corev1.ResourceCPU, Reason: "Insufficient cpu", Requested: 3500, Used: 1000, Capacity: 4000,
	}}, got)
	assert.Empty(t, noderesources.Fits(st.MakePod().Req(rl{"cpu": "1"}).Obj(), node4x8()))
}

// TestFitScore checks the LeastAllocated formula against values computed
// by hand: per resource (allocatable-requested)*100/allocatable, rounded
// down, then the average, rounded down.
func TestFitScore(t *testing.T) {
	nodeA := node4x8() // 4 cpu, 8Gi; 1 cpu and 2Gi requested
	nodeB := framework.NewNodeInfo(st.MakeNode().Name("b").Capacity(rl{"cpu": "2", "memory": "16Gi", "pods": "10"}).Obj())
	bestEffortOnA := framework.NewNodeInfo(st.MakeNode().Name("a").Capacity(rl{"cpu": "4", "memory": "8Gi", "pods": "10"}).Obj(),
		st.MakePod().Name("be").Req(nil).Obj())
	tests := []struct {
		name     string
		pod      *corev1.Pod
		nodeInfo *framework.NodeInfo
		want     int64
	}{
		// cpu (4000-2000)*100/4000 = 50; memory (8-3)*100/8 = 62; (50+62)/2.
		{name: "node A", pod: st.MakePod().Req(rl{"cpu": "1", "memory": "1Gi"}).Obj(), nodeInfo: nodeA, want: 56},
		// cpu (2000-1000)*100/2000 = 50; memory (16-1)*100/16 = 93; (50+93)/2.
		{name: "node B", pod: st.MakePod().Req(rl{"cpu": "1", "memory": "1Gi"}).Obj(), nodeInfo: nodeB, want: 71},
		// Both pods count 100m and 200Mi: cpu 3800*100/4000 = 95;
		// memory (8192-400)*100/8192 = 95; 95.
		{name: "best-effort pods count the defaults", pod: st.MakePod().Req(nil).Obj(), nodeInfo: bestEffortOnA, want: 95},
		// cpu over capacity scores 0; memory (16-1)*100/16 = 93; 93/2.
		{name: "over capacity scores 0", pod: st.MakePod().Req(rl{"cpu": "3", "memory": "1Gi"}).Obj(), nodeInfo: nodeB, want: 46},
		{name: "empty node, tiny pod", pod: st.MakePod().Req(rl{"cpu": "1m", "memory": "1"}).Obj(), nodeInfo: nodeB, want: 99},
	}
	pl := newFit(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := framework.NewCycleState()
			require.Nil(t, pl.PreScore(t.Context(), state, tc.pod, nil), "PreScore")
			got, status := pl.Score(t.Context(), state, tc.pod, tc.nodeInfo)
			require.Nil(t, status)
			assert.Equal(t, tc.want, got, "Score")
			again, _ := pl.Score(t.Context(), framework.NewCycleState(), tc.pod, tc.nodeInfo)
			assert.Equal(t, got, again, "Score without PreScore")
		})
	}
	assert.Nil(t, pl.ScoreExtensions())
}
