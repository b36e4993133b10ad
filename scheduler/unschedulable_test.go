package scheduler_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
)

// TestUnschedulablePodWaitsForAFittingNode: a pod that requests more cpu
// than any node has gets a FailedScheduling event and PodScheduled=False
// with upstream's message, and is bound as soon as a node that fits
// joins.
func TestUnschedulablePodWaitsForAFittingNode(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	clk := newFakeClock()
	cs := newClientset(t, apiservertest.New(t))
	for _, name := range []string{"small-1", "small-2"} {
		createNode(t, cs, makeNode(name, rl{"cpu": "2", "memory": "4Gi", "pods": "110"}).Obj())
	}
	// Nodes first: on a fake clock, a pod scheduled before the scheduler
	// saw a node would wait out its backoff until the test steps the clock.
	s := startScheduler(t, cs, scheduler.Options{Clock: clk})
	createPod(t, cs, makePod("big", rl{"cpu": "8"}).Obj())

	// The request exceeds every node's allocatable, so preemption could
	// not help either: NodeResourcesFit says UnschedulableAndUnresolvable.
	const want = "0/2 nodes are available: 2 Insufficient cpu. " +
		"preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	ev := clustertest.WaitForEvent(t, cs, "default", eventFor("big", "FailedScheduling"))
	assert.Equal(t, corev1.EventTypeWarning, ev.Type)
	assert.Equal(t, want, ev.Message)
	pods := waitForPods(t, cs, "default", func(pods map[string]*corev1.Pod) bool {
		c, ok := podScheduledCondition(pods["big"])
		return ok && c.Status == corev1.ConditionFalse
	})
	c, _ := podScheduledCondition(pods["big"])
	assert.Equal(t, corev1.PodReasonUnschedulable, c.Reason)
	assert.Equal(t, want, c.Message)
	assert.Empty(t, pods["big"].Spec.NodeName)

	// Unschedulable pods wait for an event: the scheduler is idle.
	clustertest.WaitIdle(t, s)
	require.True(t, s.Idle(), "an unschedulable pod does not keep the scheduler busy")

	// The new node moves the pod out of unschedulablePods. Its one-second
	// backoff has to pass too; the order of the two does not matter.
	createNode(t, cs, makeNode("large", rl{"cpu": "16", "memory": "64Gi", "pods": "110"}).Obj())
	clk.Step(time.Second)
	pods = waitForPods(t, cs, "default", bound("big"))
	assert.Equal(t, "large", pods["big"].Spec.NodeName)
	c, _ = podScheduledCondition(pods["big"])
	assert.Equal(t, corev1.ConditionTrue, c.Status, "the binding sets PodScheduled=True")
}

// TestNodeSelectorAndTaints: placement honours nodeSelector and taints
// end to end, and a pod no node matches is scheduled once a node is
// labelled to match.
func TestNodeSelectorAndTaints(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	clk := newFakeClock()
	cs := newClientset(t, apiservertest.New(t))
	capacity := rl{"cpu": "8", "memory": "32Gi", "pods": "110"}
	createNode(t, cs, makeNode("ssd", capacity).Label("disk", "ssd").Obj())
	createNode(t, cs, makeNode("gpu", capacity).Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).Obj())
	createNode(t, cs, makeNode("plain", capacity).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: clk})

	createPod(t, cs, makePod("wants-ssd", rl{"cpu": "100m"}).NodeSelector(map[string]string{"disk": "ssd"}).Obj())
	createPod(t, cs, makePod("gpu-job", rl{"cpu": "100m"}).
		NodeSelector(map[string]string{corev1.LabelHostname: "gpu"}).
		Toleration("dedicated", corev1.TolerationOpEqual, "gpu", corev1.TaintEffectNoSchedule).Obj())
	var plain []string
	for _, name := range []string{"web-0", "web-1", "web-2", "web-3", "web-4", "web-5"} {
		createPod(t, cs, makePod(name, rl{"cpu": "100m"}).Obj())
		plain = append(plain, name)
	}
	createPod(t, cs, makePod("wants-nvme", rl{"cpu": "100m"}).NodeSelector(map[string]string{"disk": "nvme"}).Obj())

	pods := waitForPods(t, cs, "default", bound(append(plain, "wants-ssd", "gpu-job")...))
	assert.Equal(t, "ssd", pods["wants-ssd"].Spec.NodeName)
	assert.Equal(t, "gpu", pods["gpu-job"].Spec.NodeName, "the toleration lets it onto the tainted node")
	for _, name := range plain {
		assert.NotEqual(t, "gpu", pods[name].Spec.NodeName, "%s does not tolerate the taint", name)
	}

	ev := clustertest.WaitForEvent(t, cs, "default", eventFor("wants-nvme", "FailedScheduling"))
	assert.Equal(t, "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, "+
		"2 node(s) didn't match Pod's node affinity/selector. "+
		"preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", ev.Message)
	clustertest.WaitIdle(t, s)
	assert.Empty(t, waitForPods(t, cs, "default", bound(plain...))["wants-nvme"].Spec.NodeName)

	// Labelling a node is a node update the NodeAffinity rejection waits
	// for.
	require.NoError(t, client.RetryOnConflict(t.Context(), client.DefaultRetry, func() error {
		n, err := cs.Nodes().Get(t.Context(), "plain", client.GetOptions{})
		if err != nil {
			return err
		}
		n.Labels["disk"] = "nvme"
		_, err = cs.Nodes().Update(t.Context(), n, client.WriteOptions{})
		return err
	}), "label node plain")
	clk.Step(time.Second)
	pods = waitForPods(t, cs, "default", bound("wants-nvme"))
	assert.Equal(t, "plain", pods["wants-nvme"].Spec.NodeName)
}

// TestHeartbeatDoesNotRetryUnschedulablePods: a node update that changes
// nothing the filters read (a heartbeat) leaves rejected pods waiting, and
// so does one that changes only what the rejecting plugin does not care
// about (a taint, for a pod NodeResourcesFit rejected).
func TestHeartbeatDoesNotRetryUnschedulablePods(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	clk := newFakeClock()
	cs := newClientset(t, apiservertest.New(t))
	createNode(t, cs, makeNode("n", rl{"cpu": "1", "memory": "1Gi", "pods": "110"}).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: clk})
	createPod(t, cs, makePod("big", rl{"cpu": "4"}).Obj())
	const insufficient = "0/1 nodes are available: 1 Insufficient cpu. " +
		"preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
	first := clustertest.WaitForEvent(t, cs, "default", eventFor("big", "FailedScheduling"))
	require.Equal(t, insufficient, first.Message)
	clustertest.WaitIdle(t, s)
	clk.Step(time.Minute) // the backoff is long over: only events hold the pod

	n, err := cs.Nodes().Get(t.Context(), "n", client.GetOptions{})
	require.NoError(t, err)
	n.Status.Conditions[0].LastHeartbeatTime = metav1.NewTime(clk.Now())
	n, err = cs.Nodes().UpdateStatus(t.Context(), n, client.WriteOptions{})
	require.NoError(t, err, "heartbeat")
	n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}}
	n, err = cs.Nodes().Update(t.Context(), n, client.WriteOptions{})
	require.NoError(t, err, "taint")
	// More cpu (still too little) is an event NodeResourcesFit waits for.
	// The retry then meets the taint, so its message tells it apart.
	n.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse("2")
	_, err = cs.Nodes().UpdateStatus(t.Context(), n, client.WriteOptions{})
	require.NoError(t, err, "allocatable")

	clustertest.WaitForEvent(t, cs, "default", func(e *corev1.Event) bool {
		return e.InvolvedObject.Name == "big" && e.Reason == "FailedScheduling" &&
			e.Message == "0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. "+
				"preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
	})
	// Events are written in order: had the heartbeat or the taint alone
	// retried the pod, the first event's count would be 2 by now.
	events, err := cs.Events("default").List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	for _, e := range events.Items {
		if e.Reason == "FailedScheduling" && e.Message == insufficient {
			assert.Equal(t, int32(1), e.Count, "the pod was tried once before the allocatable change")
		}
	}
}
