package scheduler_test

import (
	"net/http"
	"sync"
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

// TestBindFailureBackoff: a pod whose binding fails is retried after 1s,
// then 2s, then 4s of the scheduler's clock (podInitialBackoffSeconds
// doubling), not earlier; each failure records FailedScheduling and
// PodScheduled=False with reason SchedulerError; the fourth binding
// succeeds.
func TestBindFailureBackoff(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	clk := newFakeClock()
	start := clk.Now()
	const failures = 3
	var mu sync.Mutex
	var attempts []time.Duration // fake time of each binding, since start
	attemptCh := make(chan struct{}, 10)
	api := apiservertest.New(t)
	cs := newClientset(t, api, interceptBindings(func(req *http.Request, _ string) *http.Response {
		mu.Lock()
		attempts = append(attempts, clk.Since(start))
		n := len(attempts)
		mu.Unlock()
		attemptCh <- struct{}{}
		if n <= failures {
			return statusResponse(req, http.StatusInternalServerError, metav1.StatusReasonInternalError, "etcd is having a bad day")
		}
		return nil
	}))
	createNode(t, cs, makeNode("n", rl{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: clk})
	createPod(t, cs, makePod("flaky", rl{"cpu": "100m"}).Obj())

	attemptCount := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(attempts)
	}
	nextAttempt := func() {
		t.Helper()
		clustertest.Receive(t, attemptCh, "binding attempt")
	}

	nextAttempt()
	clustertest.WaitIdle(t, s)
	p, err := cs.Pods("default").Get(t.Context(), "flaky", client.GetOptions{})
	require.NoError(t, err)
	c, _ := podScheduledCondition(p)
	assert.Equal(t, corev1.ConditionFalse, c.Status)
	assert.Equal(t, "SchedulerError", c.Reason)
	assert.Equal(t, "binding rejected: etcd is having a bad day", c.Message)
	assert.True(t, c.LastTransitionTime.Equal(start), "the transition is on the scheduler's clock: %v", c.LastTransitionTime)
	for i, backoff := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		// The failed pod is in backoffQ once the scheduler is idle.
		clustertest.WaitIdle(t, s)
		clk.Step(backoff - time.Millisecond)
		clustertest.WaitIdle(t, s)
		require.Equal(t, i+1, attemptCount(), "no retry before the %v backoff ends", backoff)
		clk.Step(time.Millisecond)
		nextAttempt()
	}
	pods := waitForPods(t, cs, "default", bound("flaky"))
	assert.Equal(t, "n", pods["flaky"].Spec.NodeName)

	mu.Lock()
	assert.Equal(t, []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second}, attempts,
		"bindings at 0, then 1s, 2s and 4s after each failure")
	mu.Unlock()

	// One event per failure, folded into one Event by the recorder, which
	// writes in the background.
	ev := clustertest.WaitForEvent(t, cs, "default", func(e *corev1.Event) bool {
		return eventFor("flaky", "FailedScheduling")(e) && e.Count == failures
	})
	assert.Equal(t, `binding rejected: etcd is having a bad day`, ev.Message)
	clustertest.WaitForEvent(t, cs, "default", eventFor("flaky", "Scheduled"))
	c, _ = podScheduledCondition(pods["flaky"])
	assert.Equal(t, corev1.ConditionTrue, c.Status)
}

// TestBindingOfABoundPodIsDropped: when the binding finds the pod already
// bound (by another scheduler, here the test), the scheduler drops it: no
// retry, no FailedScheduling, and the cache follows the real binding.
func TestBindingOfABoundPodIsDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	clk := newFakeClock()
	api := apiservertest.New(t)
	direct := newClientset(t, api)
	var once sync.Once
	cs := newClientset(t, api, interceptBindings(func(req *http.Request, pod string) *http.Response {
		var resp *http.Response
		once.Do(func() {
			// Someone else binds the pod first; the scheduler's own request
			// then goes through and meets a 409.
			b := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: pod}, Target: corev1.ObjectReference{Kind: "Node", Name: "other"}}
			if err := direct.Pods("default").CreateSubresource(req.Context(), pod, "binding", b, nil, client.WriteOptions{}); err != nil {
				resp = statusResponse(req, http.StatusInternalServerError, metav1.StatusReasonInternalError, err.Error())
			}
		})
		return resp
	}))
	createNode(t, cs, makeNode("n", rl{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj())
	createNode(t, cs, makeNode("other", rl{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: clk})
	createPod(t, cs, makePod("raced", rl{"cpu": "100m"}).Obj())

	pods := waitForPods(t, cs, "default", bound("raced"))
	assert.Equal(t, "other", pods["raced"].Spec.NodeName)
	// A failure would have written PodScheduled=False before the
	// scheduler went idle.
	clustertest.WaitIdle(t, s)
	p, err := cs.Pods("default").Get(t.Context(), "raced", client.GetOptions{})
	require.NoError(t, err)
	c, _ := podScheduledCondition(p)
	assert.Equal(t, corev1.ConditionTrue, c.Status, "PodScheduled stays as the binding set it")
	events, err := cs.Events("default").List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	for _, e := range events.Items {
		assert.NotEqual(t, "FailedScheduling", e.Reason, "a lost race is no scheduling failure: %q", e.Message)
	}
}
