package scheduler_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
)

// TestAssumedPodHoldsItsResources: while a binding is in flight, the next
// cycle already counts the pod on its node, so a second pod that would
// only fit on an empty node is rejected rather than overcommitting it.
// Once the first pod is deleted, its resources are free and the second
// pod is scheduled.
func TestAssumedPodHoldsItsResources(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	clk := newFakeClock()
	arrived := make(chan string, 10)
	release := make(chan struct{})
	cs := newClientset(t, apiservertest.New(t), interceptBindings(func(req *http.Request, pod string) *http.Response {
		arrived <- pod
		if pod == "first" {
			// Hold the first binding until the second pod has been tried.
			select {
			case <-release:
			case <-req.Context().Done():
			}
		}
		return nil
	}))
	createNode(t, cs, makeNode("n", rl{"cpu": "1", "memory": "4Gi", "pods": "110"}).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: clk})

	createPod(t, cs, makePod("first", rl{"cpu": "600m"}).Obj())
	require.Equal(t, "first", clustertest.Receive(t, arrived, "binding"))
	require.False(t, s.Idle(), "a binding in flight keeps the scheduler busy")

	createPod(t, cs, makePod("second", rl{"cpu": "600m"}).Obj())
	ev := clustertest.WaitForEvent(t, cs, "default", eventFor("second", "FailedScheduling"))
	assert.Equal(t, "0/1 nodes are available: 1 Insufficient cpu. "+
		"preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.", ev.Message,
		"the assumed pod's 600m count on n")
	close(release)
	pods := waitForPods(t, cs, "default", bound("first"))
	assert.Equal(t, "n", pods["first"].Spec.NodeName)
	clustertest.WaitIdle(t, s)

	// Deleting the bound pod frees its cpu. With no kubelet, the pod
	// would wait for its grace period; delete it at once.
	zero := int64(0)
	require.NoError(t, cs.Pods("default").Delete(t.Context(), "first", metav1.DeleteOptions{GracePeriodSeconds: &zero}))
	clk.Step(time.Second) // the second pod's backoff
	pods = waitForPods(t, cs, "default", bound("second"))
	assert.Equal(t, "n", pods["second"].Spec.NodeName)
	clustertest.WaitIdle(t, s)

	_, err := cs.Pods("default").Get(t.Context(), "first", client.GetOptions{})
	require.Error(t, err, "first is gone")
	c, _ := podScheduledCondition(pods["second"])
	assert.Equal(t, corev1.ConditionTrue, c.Status)
}
