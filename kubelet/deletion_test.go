package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/wait/waittest"
)

// TestGracefulDeleteOfNginx: deleting a running nginx pod gets it SIGTERM,
// which nginx exits 0 at; the kubelet reports the final status, releases
// the IP and deletes the pod for good, without the clock moving.
func TestGracefulDeleteOfNginx(t *testing.T) {
	h := newHarness(t)
	h.run(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
	})
	p := h.waitPod("web", "Running", phaseIs(corev1.PodRunning))

	require.NoError(t, h.cs.Pods("default").Delete(t.Context(), "web", metav1.DeleteOptions{}), "delete")
	last := h.waitGone(p)
	require.NotNil(t, last.DeletionTimestamp, "the pod was deleted gracefully")
	assert.Equal(t, int64(30), *last.DeletionGracePeriodSeconds)
	assert.Equal(t, corev1.PodSucceeded, last.Status.Phase, "the final status: %s", describe(last))
	term := containerStatus(last, "nginx").State.Terminated
	require.NotNil(t, term, "final state %s", describe(last))
	assert.Equal(t, int32(0), term.ExitCode)
	assert.Equal(t, epoch, term.FinishedAt.Time.UTC(), "nginx exits at SIGTERM")

	events := h.waitEvents("web", "Killing")
	for _, e := range events {
		if e.Reason == "Killing" {
			assert.Equal(t, "Stopping container nginx", e.Message)
		}
	}
	// The kubelet removes the sandbox once its own watch delivers the
	// delete, which can come after the test's watch saw it: wait for the
	// runtime to change rather than look once.
	rt := h.kl.Runtime()
	changed, ok := rt.(interface{ Changed() <-chan struct{} })
	require.True(t, ok, "the simulated runtime reports changes")
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for {
		ch := changed.Changed()
		sandboxes, err := rt.ListPodSandbox(ctx, cri.PodSandboxFilter{})
		require.NoError(t, err)
		if len(sandboxes) == 0 {
			break
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("the deleted pod's sandbox is not removed: %v", sandboxes)
		}
	}
}

// TestGracefulDeleteKillsAtGracePeriod: a shell script ignores SIGTERM (it
// is PID 1 with no handler), so it runs until the grace period ends and is
// then killed with SIGKILL (exit code 137).
func TestGracefulDeleteKillsAtGracePeriod(t *testing.T) {
	h := newHarness(t)
	pod := busybox("stubborn", corev1.RestartPolicyAlways, "echo started; sleep 3600")
	pod.Spec.TerminationGracePeriodSeconds = ptr(int64(5))
	h.run(pod)
	p := h.waitPod("stubborn", "Running", phaseIs(corev1.PodRunning))
	h.waitIdle()

	// Step only once the kubelet waits out the grace period: its
	// StopContainer timer is the one waiter added after the delete.
	waiters := h.clock.Waiters()
	require.NoError(t, h.cs.Pods("default").Delete(t.Context(), "stubborn", metav1.DeleteOptions{}), "delete")
	require.NoError(t, h.clock.BlockUntilWaiters(t.Context(), waiters+1))
	h.clock.Step(4 * time.Second)
	_, err := h.cs.Pods("default").Get(t.Context(), "stubborn", client.GetOptions{})
	require.NoError(t, err, "still there a second before the grace period ends")
	h.clock.Step(time.Second)

	last := h.waitGone(p)
	assert.Equal(t, corev1.PodFailed, last.Status.Phase, "final status: %s", describe(last))
	term := containerStatus(last, "main").State.Terminated
	require.NotNil(t, term, "final status: %s", describe(last))
	assert.Equal(t, int32(137), term.ExitCode, "killed")
	assert.Equal(t, "Error", term.Reason)
	assert.Equal(t, epoch.Add(5*time.Second), term.FinishedAt.Time.UTC(), "at the end of the grace period")
	h.waitEvents("stubborn", "Killing")
}

// TestForceDeleteCleansUp: a pod deleted without grace (--force
// --grace-period=0) is gone from the API at once; the kubelet kills its
// containers and removes its sandbox.
func TestForceDeleteCleansUp(t *testing.T) {
	h := newHarness(t)
	h.run(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "forced"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
	})
	p := h.waitPod("forced", "Running", phaseIs(corev1.PodRunning))
	zero := int64(0)
	require.NoError(t, h.cs.Pods("default").Delete(t.Context(), "forced", metav1.DeleteOptions{GracePeriodSeconds: &zero}))
	h.waitGone(p)
	// The kubelet hears of the delete through its watch: wait for the
	// runtime to change until it is empty.
	rt := h.kl.Runtime().(*simulated.Runtime)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		changed := rt.Changed()
		sandboxes, err := rt.ListPodSandbox(ctx, cri.PodSandboxFilter{})
		require.NoError(t, err)
		containers, err := rt.ListContainers(ctx, cri.ContainerFilter{})
		require.NoError(t, err)
		if len(sandboxes) == 0 && len(containers) == 0 {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the force-deleted pod's sandbox is still there: %+v", sandboxes)
		}
	}
}

// TestIdleWhileAGracePeriodRuns: a kubelet waiting out a container's
// grace period has no work until the clock moves, so WaitIdle returns
// and a test on a fake clock can step it.
func TestIdleWhileAGracePeriodRuns(t *testing.T) {
	h := newHarness(t)
	pod := busybox("stubborn", corev1.RestartPolicyAlways, "echo started; sleep 3600")
	pod.Spec.TerminationGracePeriodSeconds = ptr(int64(5))
	h.run(pod)
	p := h.waitPod("stubborn", "Running", phaseIs(corev1.PodRunning))
	h.waitIdle()

	require.NoError(t, h.cs.Pods("default").Delete(t.Context(), "stubborn", metav1.DeleteOptions{}), "delete")
	h.waitEvents("stubborn", "Killing")
	h.waitIdle() // would block until the grace period ends: the clock never moves
	_, err := h.cs.Pods("default").Get(t.Context(), "stubborn", client.GetOptions{})
	require.NoError(t, err, "the pod is still terminating")

	h.step(5 * time.Second)
	last := h.waitGone(p)
	assert.Equal(t, int32(137), containerStatus(last, "main").State.Terminated.ExitCode, "killed at the end of the grace period")
}
