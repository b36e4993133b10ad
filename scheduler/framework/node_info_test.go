package framework_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
)

func TestNodeInfoAddRemovePod(t *testing.T) {
	node := st.MakeNode().Name("n1").Capacity(rl{"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "10Gi"}).Obj()
	p1 := st.MakePod().Name("p1").UID("u1").Req(rl{"cpu": "1", "memory": "1Gi"}).Obj()
	p2 := st.MakePod().Name("p2").UID("u2").Req(nil).Obj()
	p3 := st.MakePod().Name("p3").Req(rl{"cpu": "500m", "ephemeral-storage": "1Gi"}).Obj()

	n := framework.NewNodeInfo(node, p1, p2, p3)
	assert.Same(t, node, n.Node())
	assert.Len(t, n.Pods, 3)
	assert.Equal(t, framework.Resource{MilliCPU: 4000, Memory: 8192 * mi, EphemeralStorage: 10240 * mi, AllowedPodNumber: 110}, n.Allocatable)
	assert.Equal(t, framework.Resource{MilliCPU: 1500, Memory: 1024 * mi, EphemeralStorage: 1024 * mi}, n.Requested)
	// p2 and p3 count the scoring defaults for what they do not request.
	assert.Equal(t, framework.Resource{MilliCPU: 1600, Memory: (1024 + 200 + 200) * mi}, n.NonZeroRequested)

	gen := n.Generation
	require.NoError(t, n.RemovePod(p1), "RemovePod(p1)")
	assert.Greater(t, n.Generation, gen, "Generation grows on every change")
	assert.Equal(t, framework.Resource{MilliCPU: 500, EphemeralStorage: 1024 * mi}, n.Requested)
	assert.Equal(t, framework.Resource{MilliCPU: 600, Memory: 400 * mi}, n.NonZeroRequested)

	// A pod without a UID is found by namespace/name, even if it changed
	// since it was added: what was added is what is subtracted.
	changed := st.MakePod().Name("p3").Req(rl{"cpu": "3"}).Obj()
	require.NoError(t, n.RemovePod(changed), "RemovePod(p3 changed)")
	assert.Equal(t, framework.Resource{}, n.Requested)
	assert.Len(t, n.Pods, 1)

	err := n.RemovePod(p1)
	assert.EqualError(t, err, "no pod u1 on node n1", "removing a pod twice")
	require.NoError(t, n.RemovePod(p2))
	assert.Empty(t, n.Pods)
	assert.Equal(t, framework.Resource{}, n.NonZeroRequested, "sums go back to zero")
}

func TestNodeInfoAllocatable(t *testing.T) {
	capacityOnly := st.MakeNode().Capacity(rl{"cpu": "4", "pods": "10"}).Allocatable(nil).Obj()
	assert.Equal(t, framework.Resource{MilliCPU: 4000, AllowedPodNumber: 10}, framework.NewNodeInfo(capacityOnly).Allocatable,
		"no allocatable falls back to capacity")

	both := st.MakeNode().Capacity(rl{"cpu": "4", "pods": "10"}).Allocatable(rl{"cpu": "3500m", "pods": "8"}).Obj()
	n := framework.NewNodeInfo(both)
	assert.Equal(t, framework.Resource{MilliCPU: 3500, AllowedPodNumber: 8}, n.Allocatable, "allocatable wins")

	// SetNode replaces the node and recomputes allocatable, keeping pods.
	n.AddPod(st.MakePod().Req(rl{"cpu": "1"}).Obj())
	n.SetNode(capacityOnly)
	assert.Equal(t, int64(4000), n.Allocatable.MilliCPU)
	assert.Equal(t, int64(1000), n.Requested.MilliCPU)

	assert.Nil(t, framework.NewNodeInfo(nil).Node(), "a NodeInfo may exist before its node")
}

func TestNodeInfoClone(t *testing.T) {
	gpuNode := st.MakeNode().Name("n").Capacity(rl{"cpu": "4", gpu: "2", "pods": "10"}).Obj()
	n := framework.NewNodeInfo(gpuNode, st.MakePod().Name("a").Req(rl{"cpu": "1", gpu: "1"}).Obj())
	c := n.Clone()
	assert.Equal(t, n.String(), c.String())
	assert.Equal(t, n.Generation, c.Generation)

	c.AddPod(st.MakePod().Name("b").Req(rl{"cpu": "1", gpu: "1"}).Obj())
	assert.Len(t, n.Pods, 1, "the original keeps its pods")
	assert.Equal(t, int64(1000), n.Requested.MilliCPU)
	assert.Equal(t, int64(1), n.Requested.ScalarResources[gpu], "the original keeps its scalar sums")
	assert.Equal(t, int64(2), c.Requested.ScalarResources[gpu])
}

func TestNewPodInfo(t *testing.T) {
	pod := st.MakePod().Req(rl{"cpu": "250m"}).Obj()
	pi := framework.NewPodInfo(pod)
	assert.Same(t, pod, pi.Pod)
	assert.Equal(t, framework.Resource{MilliCPU: 250}, pi.Requests)
	assert.Equal(t, framework.Resource{MilliCPU: 250, Memory: 200 * mi}, pi.NonZeroRequests)
}
