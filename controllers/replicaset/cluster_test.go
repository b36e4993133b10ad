package replicaset_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/replicaset"
)

// clusterEnv is a whole cluster (scheduler, simulated nodes, no built-in
// controllers) and a Manager running only the replicaset controller.
type clusterEnv struct {
	c   *clustertest.Cluster
	cs  *client.Clientset
	mgr *manager.Manager
}

func newClusterEnv(t *testing.T, nodes int, clk clock.Clock) *clusterEnv {
	t.Helper()
	opts := []clustertest.Option{clustertest.WithNodes(nodes), clustertest.WithControllers()}
	if clk != nil {
		opts = append(opts, clustertest.WithClock(clk))
	}
	c := clustertest.New(t, opts...)
	return &clusterEnv{c: c, cs: c.Clientset(), mgr: clustertest.StartManager(t, c.Clientset().Client(), clk, replicaset.Add)}
}

// waitIdle waits for the cluster and the Manager to be idle together.
func (e *clusterEnv) waitIdle(t *testing.T) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		require.NoError(t, e.c.WaitIdle(ctx), "cluster idle")
		require.NoError(t, e.mgr.WaitIdle(ctx), "manager idle")
		// The Manager's work may have given the cluster more.
		if e.c.WaitIdle(ctx) == nil && e.mgr.Idle() {
			return
		}
	}
}

// running returns the pods of rs that are Running and not being deleted.
func running(rs *appsv1.ReplicaSet, pods map[string]*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range active(ownedBy(rs, pods)) {
		if p.Status.Phase == corev1.PodRunning {
			out = append(out, p)
		}
	}
	return out
}

// TestPodsRunOnNodesAndAreReplaced: the ReplicaSet's pods are scheduled
// and run on the simulated nodes, count as ready and available, a Running
// pod deleted is replaced by a new one that runs, and a scale-down leaves
// exactly the pods wanted once the others have terminated.
func TestPodsRunOnNodesAndAreReplaced(t *testing.T) {
	e := newClusterEnv(t, 2, nil)
	rs := createRS(t, e.cs, newReplicaSet("web", 3))
	pods := waitForPods(t, e.cs, "three Running pods", func(pods map[string]*corev1.Pod) bool {
		return len(running(rs, pods)) == 3
	})
	nodes := map[string]bool{}
	for _, p := range running(rs, pods) {
		nodes[p.Spec.NodeName] = true
	}
	assert.Len(t, nodes, 2, "spread over both nodes:\n%s", describePods(pods))
	waitForRS(t, e.cs, "web", "three available", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(3)(rs) && rs.Status.ReadyReplicas == 3 && rs.Status.AvailableReplicas == 3
	})

	victim := running(rs, pods)[0]
	require.NoError(t, e.cs.Pods("default").Delete(t.Context(), victim.Name, metav1.DeleteOptions{}))
	pods = waitForPods(t, e.cs, "the deleted pod gone and replaced", func(pods map[string]*corev1.Pod) bool {
		_, stillThere := pods[victim.Name]
		return !stillThere && len(running(rs, pods)) == 3
	})
	assert.Len(t, pods, 3, "%s", describePods(pods))

	scale(t, e.cs, "web", 1)
	waitForPods(t, e.cs, "one pod left", func(pods map[string]*corev1.Pod) bool {
		return len(pods) == 1 && len(running(rs, pods)) == 1
	})
	got := waitForRS(t, e.cs, "web", "one available", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(1)(rs) && rs.Status.AvailableReplicas == 1 && terminating(rs) == 0
	})
	waitCached(t, e.mgr, got, false)
	e.waitIdle(t)
	pods = listPods(t, e.cs)
	assert.Len(t, pods, 1, "%s", describePods(pods))
}

// TestAvailabilityWaitsForMinReadySeconds: ready pods count as available
// only once they have been ready for more than minReadySeconds on the
// clock, and the controller notices without any pod event.
func TestAvailabilityWaitsForMinReadySeconds(t *testing.T) {
	// Now, on a whole second (Ready's transition time has second
	// precision): the cluster's TLS certificate is made on this clock and
	// checked on the real one.
	clk := clocktest.NewFake(clock.Real.Now().Truncate(time.Second))
	e := newClusterEnv(t, 1, clk)
	spec := newReplicaSet("web", 2)
	spec.Spec.MinReadySeconds = 10
	createRS(t, e.cs, spec)

	got := waitForRS(t, e.cs, "web", "two ready pods", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(2)(rs) && rs.Status.ReadyReplicas == 2
	})
	assert.Equal(t, int32(2), got.Status.FullyLabeledReplicas)
	assert.Zero(t, got.Status.AvailableReplicas, "ready for 0s of 10")
	waitCached(t, e.mgr, got, false)
	e.waitIdle(t)

	clk.Step(10 * time.Second)
	e.waitIdle(t)
	got, err := e.cs.ReplicaSets("default").Get(t.Context(), "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Zero(t, got.Status.AvailableReplicas, "available only after more than minReadySeconds")

	clk.Step(time.Second)
	waitForRS(t, e.cs, "web", "two available", func(rs *appsv1.ReplicaSet) bool {
		return rs.Status.AvailableReplicas == 2
	})
}
