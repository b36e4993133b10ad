package clustertest_test

import (
	"context"
	"fmt"
	"io"
	"net/url"
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
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestCrashLoopOnFakeClock runs a pod whose container sleeps 30s and exits
// 3, with restartPolicy OnFailure, on a cluster whose every component
// (API server, kubelet, runtime, heartbeats) runs on one fake clock:
// nothing happens until the test steps the clock. The container runs
// until 30s have been stepped, is restarted at once after its first exit,
// then after CrashLoopBackOff delays of 10s and 20s; the node's Lease is
// renewed only when a step crosses a heartbeat (every 10s from the
// node's registration), to the fake time of that step.
//
// Barriers: after a Step, c.WaitIdle returns only once the kubelet has
// acted on everything the clock made due (a container's exit, a backoff
// running out) and written the pod's status, so the pod is read with a
// plain Get; right after the create too, since WaitIdle first brings
// every component's caches up to every change written so far. WaitIdle
// is not a barrier for two things, waited for on a watch under a
// deadline instead:
//
//  1. heartbeats: the Lease renewal runs on its own goroutine when the
//     clock's ticker fires, and does not count as work (it changes no
//     pod), so the test waits for the Lease's renewTime;
//  2. Events, written in the background by the recorder.
//
// The pod names its node instead of going through the scheduler: the
// scheduler may try a pod before its informer has the node (cluster Ready
// does not wait for that), and the retry would then wait out a second of
// backoff on the fake clock, shifting every time below.
func TestCrashLoopOnFakeClock(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	// Near the wall clock: the API server's certificate is valid from the
	// cluster clock's time, and the HTTPS client checks it on the wall
	// clock.
	epoch := clock.Real.Now().Add(-time.Hour).Truncate(time.Second).UTC()
	clk := clocktest.NewFake(epoch)
	c := clustertest.New(t, clustertest.WithNodes(1), clustertest.WithClock(clk), clustertest.WithControllers())
	// The whole scenario takes well under a second; each wait has its own
	// clustertest.WaitTimeout, and this bounds their sum.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cs := c.Clientset()
	pods := cs.Pods("default")
	node := cluster.NodeName(0)
	at := func(s int) time.Time { return epoch.Add(time.Duration(s) * time.Second) }

	_, err := pods.Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "crash"},
		Spec: corev1.PodSpec{
			NodeName:      node,
			RestartPolicy: corev1.RestartPolicyOnFailure,
			Containers: []corev1.Container{{Name: "main", Image: "busybox:1.36",
				Command: []string{"sh", "-c", "echo hi; sleep 30; exit 3"}}},
		},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod")
	require.NoError(t, c.WaitIdle(ctx), "WaitIdle")
	p, err := pods.Get(ctx, "crash", client.GetOptions{})
	require.NoError(t, err)
	assertContainer(t, p, "at 0s", want{running: at(0)})
	assertLease(ctx, t, cs, node, at(0), "at 0s, as registered")
	logs, err := pods.Stream(ctx, "crash", "log", url.Values{})
	require.NoError(t, err, "pods/log")
	out, err := io.ReadAll(logs)
	logs.Close()
	require.NoError(t, err)
	assert.Equal(t, "hi\n", string(out), "the container's log")

	steps := []struct {
		step time.Duration
		now  int // seconds since epoch, after the step
		want want
		// lease is the renewTime after the step: the step's time when it
		// crossed a heartbeat (a multiple of 10s), else the last one.
		lease int
	}{
		{step: 29 * time.Second, now: 29, want: want{running: at(0)}, lease: 29},
		// The first exit is restarted at once.
		{step: time.Second, now: 30, want: want{running: at(30), restarts: 1, last: exited{at(0), at(30)}}, lease: 30},
		// The second waits 10s...
		{step: 30 * time.Second, now: 60, want: want{backOff: "10s", restarts: 1, last: exited{at(30), at(60)}}, lease: 60},
		{step: 9 * time.Second, now: 69, want: want{backOff: "10s", restarts: 1, last: exited{at(30), at(60)}}, lease: 60},
		{step: time.Second, now: 70, want: want{running: at(70), restarts: 2, last: exited{at(30), at(60)}}, lease: 70},
		// ...the third 20s.
		{step: 30 * time.Second, now: 100, want: want{backOff: "20s", restarts: 2, last: exited{at(70), at(100)}}, lease: 100},
		{step: 19 * time.Second, now: 119, want: want{backOff: "20s", restarts: 2, last: exited{at(70), at(100)}}, lease: 119},
		{step: time.Second, now: 120, want: want{running: at(120), restarts: 3, last: exited{at(70), at(100)}}, lease: 120},
	}
	for _, s := range steps {
		clk.Step(s.step)
		require.Equal(t, at(s.now), clk.Now())
		require.NoError(t, c.WaitIdle(ctx), "WaitIdle at %ds", s.now)
		p, err := pods.Get(ctx, "crash", client.GetOptions{})
		require.NoError(t, err)
		assertContainer(t, p, fmt.Sprintf("at %ds", s.now), s.want)
		assertLease(ctx, t, cs, node, at(s.lease), fmt.Sprintf("at %ds", s.now))
		if s.now == 60 {
			ev := clustertest.WaitForEvent(t, cs, "default", func(ev *corev1.Event) bool {
				return ev.InvolvedObject.Name == "crash" && ev.Reason == "BackOff"
			})
			assert.Equal(t, corev1.EventTypeWarning, ev.Type)
			assert.Contains(t, ev.Message, "Back-off restarting failed container main in pod crash_default(")
			assert.Equal(t, at(60), ev.FirstTimestamp.Time.UTC(), "the BackOff event is stamped with the fake time")
		}
	}
}

// want is a container's expected status. Exactly one of running (when
// it started) and backOff (the CrashLoopBackOff delay) is set.
type want struct {
	running  time.Time
	backOff  string
	restarts int32
	last     exited // zero: no last termination
}

// exited is a run that ended with exit code 3.
type exited struct{ started, finished time.Time }

// assertContainer checks the pod's one container against w; when says at
// which step.
func assertContainer(t *testing.T, p *corev1.Pod, when string, w want) {
	t.Helper()
	assert.Equal(t, corev1.PodRunning, p.Status.Phase, "%s: a restarting pod stays Running", when)
	require.Len(t, p.Status.ContainerStatuses, 1, when)
	st := p.Status.ContainerStatuses[0]
	assert.Equal(t, w.restarts, st.RestartCount, "%s: restartCount", when)
	if w.backOff == "" {
		if assert.NotNil(t, st.State.Running, "%s: running, not %+v", when, st.State) {
			assert.Equal(t, w.running, st.State.Running.StartedAt.Time.UTC(), "%s: started at", when)
		}
	} else if assert.NotNil(t, st.State.Waiting, "%s: waiting, not %+v", when, st.State) {
		assert.Equal(t, "CrashLoopBackOff", st.State.Waiting.Reason, when)
		assert.Contains(t, st.State.Waiting.Message, "back-off "+w.backOff+" restarting failed container=main pod=crash_default(", when)
	}
	last := st.LastTerminationState.Terminated
	if w.last == (exited{}) {
		assert.Nil(t, last, "%s: no last termination", when)
		return
	}
	if assert.NotNil(t, last, "%s: last termination", when) {
		assert.Equal(t, int32(3), last.ExitCode, "%s: last exit code", when)
		assert.Equal(t, "Error", last.Reason, when)
		assert.Equal(t, w.last.started, last.StartedAt.Time.UTC(), "%s: last run started", when)
		assert.Equal(t, w.last.finished, last.FinishedAt.Time.UTC(), "%s: last run finished", when)
	}
}

// assertLease waits until the node's Lease says it was renewed at renew:
// the renewal runs on the kubelet's heartbeat goroutine, which WaitIdle
// does not wait for. A Lease renewed at any other time fails the wait.
func assertLease(ctx context.Context, t *testing.T, cs *client.Clientset, node string, renew time.Time, when string) {
	t.Helper()
	leases := cs.Leases(metav1.NamespaceNodeLease)
	clustertest.WaitFor(t, leases, node, fmt.Sprintf("%s: renewTime %s", when, renew.Format(time.TimeOnly)),
		func(l *coordinationv1.Lease, found bool) bool {
			return found && l.Spec.RenewTime != nil && l.Spec.RenewTime.Time.Equal(renew)
		})
}
