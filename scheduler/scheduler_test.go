package scheduler_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
)

// TestSchedulesAndSpreadsPods: 100 pods on 10 equal nodes are all bound,
// and LeastAllocated plus BalancedAllocation spread them: since each
// assumed pod makes its node score lower, no node gets much more than
// its share.
func TestSchedulesAndSpreadsPods(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	cs := newClientset(t, apiservertest.New(t))
	const nodes, pods = 10, 100
	// Nodes first: a Ready scheduler has seen every node that existed
	// when it started (see Ready).
	for i := range nodes {
		createNode(t, cs, makeNode(fmt.Sprintf("node-%d", i), rl{"cpu": "8", "memory": "32Gi", "pods": "110"}).Obj())
	}
	s := startScheduler(t, cs, scheduler.Options{Clock: newFakeClock(), Rand: rand.New(rand.NewPCG(1, 2))})
	names := make([]string, pods)
	for i := range pods {
		names[i] = fmt.Sprintf("pod-%03d", i)
		createPod(t, cs, makePod(names[i], rl{"cpu": "100m", "memory": "256Mi"}).Obj())
	}
	got := waitForPods(t, cs, "default", bound(names...))

	perNode := map[string]int{}
	for _, p := range got {
		perNode[p.Spec.NodeName]++
	}
	t.Logf("pods per node: %v", perNode)
	assert.Len(t, perNode, nodes, "every node gets pods: %v", perNode)
	for node, n := range perNode {
		assert.LessOrEqual(t, n, 2*pods/nodes, "node %s has more than twice its share: %v", node, perNode)
	}
	for _, p := range got {
		c, ok := podScheduledCondition(p)
		require.True(t, ok, "pod %s has a PodScheduled condition", p.Name)
		assert.Equal(t, corev1.ConditionTrue, c.Status, "pod %s PodScheduled", p.Name)
	}
	ev := clustertest.WaitForEvent(t, cs, "default", eventFor("pod-042", "Scheduled"))
	assert.Equal(t, corev1.EventTypeNormal, ev.Type)
	assert.Equal(t, fmt.Sprintf("Successfully assigned default/pod-042 to %s", got["pod-042"].Spec.NodeName), ev.Message)
	assert.Equal(t, "default-scheduler", ev.Source.Component)
	assert.Equal(t, "Pod", ev.InvolvedObject.Kind)
	clustertest.WaitIdle(t, s)
}
