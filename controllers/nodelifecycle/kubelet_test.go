package nodelifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/nodelifecycle"
	"github.com/minicp/minicp/kubelet"
)

// TestHealthyClusterStaysReady: simulated kubelets heartbeat on the same
// fake clock; stepping it well past the grace period marks no node not
// ready, taints none and evicts nothing: the controller and the kubelet
// agree on what a heartbeat is.
func TestHealthyClusterStaysReady(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	// The cluster's certificates are made on this clock and checked on
	// the real one: start at the real time.
	clk := clocktest.NewFake(clock.Real.Now().Truncate(time.Second))
	c := clustertest.New(t, clustertest.WithNodes(2), clustertest.WithControllers(), clustertest.WithClock(clk))
	cs := c.Clientset()
	mgr := clustertest.StartManager(t, cs.Client(), clk, nodelifecycle.Add)
	nodes, err := cs.Nodes().List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, nodes.Items, 2)
	for _, n := range nodes.Items {
		waitEvent(t, cs, "default", n.Name, "RegisteredNode", "Registered Node "+n.Name+" in Controller")
	}
	_, err = cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	clustertest.WaitFor(t, cs.Pods("default"), "web", "ready", func(p *corev1.Pod, found bool) bool {
		return found && podReady(p) == corev1.ConditionTrue
	})

	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	// Each step is one kubelet heartbeat; wait for every node's before
	// the next, as a real clock would wait for them.
	for elapsed := time.Duration(0); elapsed <= 2*nodelifecycle.NodeMonitorGracePeriod; elapsed += kubelet.DefaultHeartbeatInterval {
		clk.Step(kubelet.DefaultHeartbeatInterval)
		now := clk.Now()
		for _, n := range nodes.Items {
			clustertest.WaitFor(t, cs.Leases(metav1.NamespaceNodeLease), n.Name, "renewed", func(l *coordinationv1.Lease, found bool) bool {
				return found && l.Spec.RenewTime != nil && !l.Spec.RenewTime.Before(now)
			})
		}
		require.NoError(t, mgr.WaitIdle(ctx))
		require.NoError(t, c.WaitIdle(ctx))
	}

	for _, n := range nodes.Items {
		node, err := cs.Nodes().Get(t.Context(), n.Name, client.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, corev1.ConditionTrue, condition(node, corev1.NodeReady).Status, "node %s", n.Name)
		assert.Empty(t, node.Spec.Taints, "node %s", n.Name)
	}
	assert.Empty(t, events(t, cs, "default", "NodeNotReady"))
	pod, err := cs.Pods("default").Get(t.Context(), "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Nil(t, pod.DeletionTimestamp, "pod evicted")
	assert.Equal(t, corev1.ConditionTrue, podReady(pod), "pod marked not ready")
}
