package nodelifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/nodelifecycle"
)

// TestUnreachableNodeIsTaintedAndItsPodsEvicted: node "down" stops
// renewing its Lease while "up" goes on. Past the grace period (and not
// before) "down" is Unknown and tainted unreachable; its pods are marked
// not ready and evicted as their tolerations say: at once for 0 seconds,
// after 60s for 60 seconds, not within 60s for the 300 seconds the API
// server gives every pod, never without a limit. When "down" posts Ready
// again its taints go and the pending evictions are cancelled.
func TestUnreachableNodeIsTaintedAndItsPodsEvicted(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	e := newEnv(t, func(e *env) {
		e.createNode("up")
		e.createNode("down")
	})
	for _, p := range []struct {
		name string
		tol  []corev1.Toleration
	}{
		{"now", []corev1.Toleration{tolerate(corev1.TaintNodeUnreachable, secs(0))}},
		{"sixty", []corev1.Toleration{tolerate(corev1.TaintNodeUnreachable, secs(60))}},
		{"default", nil},
		{"forever", []corev1.Toleration{tolerate(corev1.TaintNodeUnreachable, nil)}},
	} {
		e.createPod(p.name, "down", p.tol...)
	}
	e.createPod("elsewhere", "up")
	assert.Contains(t, e.pod("default").Spec.Tolerations, tolerate(corev1.TaintNodeUnreachable, secs(300)),
		"the API server's DefaultTolerationSeconds")
	e.waitIdle()

	// The grace period is not yet over: nothing happens.
	e.step(nodelifecycle.NodeMonitorGracePeriod, "up")
	down := e.node("down")
	assert.Equal(t, corev1.ConditionTrue, condition(down, corev1.NodeReady).Status, "Ready at exactly the grace period")
	assert.Empty(t, down.Spec.Taints)

	// Past it: Unknown, tainted, and the pods not ready.
	e.step(nodelifecycle.NodeMonitorPeriod, "up")
	tainted := func(n *corev1.Node) bool {
		return hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute) &&
			hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoSchedule)
	}
	// The evictions below are timed from the taint, whenever it came.
	e.stepUntil("down", 30*time.Second, tainted, "up")
	down = clustertest.WaitFor(t, e.cs.Nodes(), "down", "tainted", func(n *corev1.Node, _ bool) bool { return tainted(n) })
	for _, ct := range []corev1.NodeConditionType{corev1.NodeReady, corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure} {
		c := condition(down, ct)
		assert.Equal(t, corev1.ConditionUnknown, c.Status, "condition %s", ct)
		assert.Equal(t, "NodeStatusUnknown", c.Reason, "condition %s", ct)
		assert.Equal(t, "Kubelet stopped posting node status.", c.Message, "condition %s", ct)
	}
	for _, taint := range down.Spec.Taints {
		assert.NotNil(t, taint.TimeAdded, "taint %s:%s has its time", taint.Key, taint.Effect)
	}
	up := e.node("up")
	assert.Equal(t, corev1.ConditionTrue, condition(up, corev1.NodeReady).Status, "a renewed Lease is a heartbeat")
	assert.Empty(t, up.Spec.Taints)
	waitEvent(t, e.cs, "default", "down", "NodeNotReady", "Node down status is now: NodeNotReady")
	clustertest.WaitFor(t, e.cs.Pods("default"), "forever", "marked not ready", func(p *corev1.Pod, _ bool) bool {
		return podReady(p) == corev1.ConditionFalse
	})
	assert.Equal(t, corev1.ConditionTrue, podReady(e.pod("elsewhere")), "a pod of a ready node")

	// Evictions: tolerated for 0 seconds means at once.
	evicted := e.waitEvicted("now")
	var target corev1.PodCondition
	for _, c := range evicted.Status.Conditions {
		if c.Type == corev1.DisruptionTarget {
			target = c
		}
	}
	assert.Equal(t, corev1.ConditionTrue, target.Status, "DisruptionTarget")
	assert.Equal(t, "DeletionByTaintManager", target.Reason)
	waitEvent(t, e.cs, "default", "now", "TaintManagerEviction", "Marking for deletion Pod default/now")
	e.waitIdle()
	e.step(60*time.Second-nodelifecycle.NodeMonitorPeriod, "up")
	assert.Nil(t, e.pod("sixty").DeletionTimestamp, "evicted before its 60s")
	e.step(nodelifecycle.NodeMonitorPeriod, "up")
	e.waitEvicted("sixty")
	for _, name := range []string{"default", "forever", "elsewhere"} {
		assert.Nil(t, e.pod(name).DeletionTimestamp, "pod %s evicted", name)
	}

	// Back: the taints go, and so does the pending eviction of "default".
	e.renewLease("down")
	e.postReady("down")
	down = clustertest.WaitFor(t, e.cs.Nodes(), "down", "untainted", func(n *corev1.Node, _ bool) bool { return len(n.Spec.Taints) == 0 })
	assert.Equal(t, corev1.ConditionTrue, condition(down, corev1.NodeReady).Status)
	waitEvent(t, e.cs, "default", "default", "TaintManagerEviction", "Cancelling deletion of Pod default/default")
}

// TestNodeNotReadySwapsTaint: a kubelet that reports its node not ready
// gets the not-ready taints at once, and the unreachable ones when it
// then goes silent.
func TestNodeNotReadySwapsTaint(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	e := newEnv(t, func(e *env) {
		e.createNode("up")
		e.createNode("sick")
	})
	require.NoError(t, client.RetryOnConflict(t.Context(), client.DefaultRetry, func() error {
		node := e.node("sick")
		for i := range node.Status.Conditions {
			if node.Status.Conditions[i].Type == corev1.NodeReady {
				node.Status.Conditions[i].Status = corev1.ConditionFalse
				node.Status.Conditions[i].Reason = "KubeletNotReady"
			}
		}
		_, err := e.cs.Nodes().UpdateStatus(t.Context(), node, client.WriteOptions{})
		return err
	}))
	clustertest.WaitFor(t, e.cs.Nodes(), "sick", "tainted not-ready", func(n *corev1.Node, _ bool) bool {
		return hasTaint(n, corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute) &&
			hasTaint(n, corev1.TaintNodeNotReady, corev1.TaintEffectNoSchedule)
	})

	e.step(nodelifecycle.NodeMonitorGracePeriod+nodelifecycle.NodeMonitorPeriod, "up")
	swapped := func(n *corev1.Node) bool {
		return hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute) &&
			hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoSchedule) &&
			!hasTaint(n, corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute) &&
			!hasTaint(n, corev1.TaintNodeNotReady, corev1.TaintEffectNoSchedule)
	}
	e.stepUntil("sick", 30*time.Second, swapped, "up")
	sick := clustertest.WaitFor(t, e.cs.Nodes(), "sick", "tainted unreachable", func(n *corev1.Node, _ bool) bool { return swapped(n) })
	assert.Equal(t, corev1.ConditionUnknown, condition(sick, corev1.NodeReady).Status)
}

// TestEveryNodeDownEvictsNothing: when no node at all is ready, the
// control plane's view is the likely fault: the node is Unknown and
// unschedulable, but gets no NoExecute taint and keeps its pods.
func TestEveryNodeDownEvictsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	e := newEnv(t, func(e *env) { e.createNode("only") })
	e.createPod("now", "only", tolerate(corev1.TaintNodeUnreachable, secs(0)))
	e.waitIdle()
	e.step(nodelifecycle.NodeMonitorGracePeriod + 2*nodelifecycle.NodeMonitorPeriod)
	clustertest.WaitFor(t, e.cs.Nodes(), "only", "unschedulable", func(n *corev1.Node, _ bool) bool {
		return hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoSchedule)
	})
	e.waitIdle()
	e.step(nodelifecycle.NodeMonitorPeriod)
	only := e.node("only")
	assert.Equal(t, corev1.ConditionUnknown, condition(only, corev1.NodeReady).Status)
	assert.False(t, hasTaint(only, corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute), "taints: %+v", only.Spec.Taints)
	assert.Nil(t, e.pod("now").DeletionTimestamp, "evicted while every node is down")
}

// TestTaintEviction: the pods of a node with a NoExecute taint go at once
// if they do not tolerate it, after tolerationSeconds if they tolerate
// it for so long, not at all if they tolerate it without limit; an
// eviction pending when the taint goes is cancelled.
func TestTaintEviction(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	maintenance := corev1.Taint{Key: "example.com/maintenance", Effect: corev1.TaintEffectNoExecute}
	e := newEnv(t, func(e *env) { e.createNode("n", maintenance) })
	e.createPod("none", "n")
	e.createPod("sixty", "n", tolerate(maintenance.Key, secs(60)))
	e.createPod("forever", "n", tolerate(maintenance.Key, nil))

	e.waitEvicted("none")
	e.waitIdle()
	e.step(55*time.Second, "n")
	assert.Nil(t, e.pod("sixty").DeletionTimestamp, "evicted at 55s")
	e.step(5*time.Second, "n")
	e.waitEvicted("sixty")
	assert.Nil(t, e.pod("forever").DeletionTimestamp, "evicted though tolerating forever")

	e.createPod("later", "n", tolerate(maintenance.Key, secs(60)))
	e.waitIdle()
	e.step(30*time.Second, "n")
	require.NoError(t, client.RetryOnConflict(t.Context(), client.DefaultRetry, func() error {
		node := e.node("n")
		node.Spec.Taints = nil
		_, err := e.cs.Nodes().Update(t.Context(), node, client.WriteOptions{})
		return err
	}))
	waitEvent(t, e.cs, "default", "later", "TaintManagerEviction", "Cancelling deletion of Pod default/later")
	e.step(35*time.Second, "n")
	assert.Nil(t, e.pod("later").DeletionTimestamp, "evicted after its taint went")
}

// TestNodeThatNeverPosted: a node whose kubelet never posted a status is
// judged from its creation, with the longer startup grace period.
func TestNodeThatNeverPosted(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	e := newEnv(t, func(e *env) {
		e.createNode("up")
		_, err := e.cs.Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "silent"}}, client.WriteOptions{})
		require.NoError(t, err)
	})
	// Creation is stamped in whole seconds, up to a second off the
	// fake clock's start.
	e.step(nodelifecycle.NodeStartupGracePeriod-2*time.Second, "up")
	silent := e.node("silent")
	assert.Empty(t, silent.Status.Conditions, "judged within the startup grace period")
	assert.Empty(t, silent.Spec.Taints)

	e.step(4*time.Second, "up")
	e.stepUntil("silent", 30*time.Second, func(n *corev1.Node) bool {
		return hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute)
	}, "up")
	silent = clustertest.WaitFor(t, e.cs.Nodes(), "silent", "tainted", func(n *corev1.Node, _ bool) bool {
		return hasTaint(n, corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute)
	})
	for _, ct := range []corev1.NodeConditionType{corev1.NodeReady, corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure} {
		c := condition(silent, ct)
		assert.Equal(t, corev1.ConditionUnknown, c.Status, "condition %s", ct)
		assert.Equal(t, "NodeStatusNeverUpdated", c.Reason, "condition %s", ct)
		assert.Equal(t, "Kubelet never posted node status.", c.Message, "condition %s", ct)
	}
}
