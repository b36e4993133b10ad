package job_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/job"
)

// TestFinishedPodDeletedBeforeCountedIsCountedOnce: a pod that succeeds
// while the controller is down, and is deleted right away, stays (its
// tracking finalizer holds it) until the controller is back and counts
// it; then the finalizer goes and so does the pod. The Job completes
// with one success, not zero and not two.
func TestFinishedPodDeletedBeforeCountedIsCountedOnce(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("once", "sleep 5; exit 0"))
	pods := e.waitPods("once", "running", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodRunning) == 1 })
	require.Contains(t, pods[0].Finalizers, batchv1.JobTrackingFinalizer, "a running pod carries the finalizer")
	e.waitIdle()
	e.stopMgr()

	e.clk.Step(5 * time.Second)
	e.waitPods("once", "succeeded", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodSucceeded) == 1 })
	require.NoError(t, e.cs.Pods(ns).Delete(t.Context(), pods[0].Name, metav1.DeleteOptions{}), "delete the finished pod")
	p, err := e.cs.Pods(ns).Get(t.Context(), pods[0].Name, client.GetOptions{})
	require.NoError(t, err, "the finalizer keeps the pod until the controller counted it")
	require.NotNil(t, p.DeletionTimestamp)
	assert.Equal(t, int32(0), e.getJob("once").Status.Succeeded, "not counted while the controller is down")

	e.startManager()
	j := e.waitJob("once", "complete", finished)
	assert.True(t, hasCondition(j, batchv1.JobComplete), describeJob(j))
	assert.Equal(t, int32(1), j.Status.Succeeded, "counted once")
	assert.Equal(t, int32(0), j.Status.Failed, "a pod deleted after it succeeded is no failure")
	e.waitPods("once", "gone", func(pods []corev1.Pod) bool { return len(pods) == 0 })
	e.waitIdle()
	j = e.getJob("once")
	assert.Equal(t, int32(1), j.Status.Succeeded, "still counted once: %s", describeJob(j))
	assert.Empty(t, j.Status.UncountedTerminatedPods.Succeeded)
}

// TestRunningPodDeletedCountsAsFailure: a running pod deleted by a user
// is a failure, counted once although the pod goes through several
// states (terminating, failed, gone), and replaced after the backoff.
func TestRunningPodDeletedCountsAsFailure(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("victim", "sleep 3600", func(j *batchv1.Job) {
		j.Spec.Template.Spec.TerminationGracePeriodSeconds = ptrTo(int64(0))
	}))
	pods := e.waitPods("victim", "running", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodRunning) == 1 })
	first := pods[0].Name
	e.waitIdle()
	require.NoError(t, e.cs.Pods(ns).Delete(t.Context(), first, metav1.DeleteOptions{}))

	e.waitJob("victim", "failure counted", func(j *batchv1.Job) bool { return j.Status.Failed == 1 })
	e.waitPods("victim", "deleted pod gone", func(pods []corev1.Pod) bool {
		return len(pods) == 0 || len(pods) == 1 && pods[0].Name != first
	})
	e.waitIdle()
	e.clk.Step(job.DefaultJobPodFailureBackOff)
	pods = e.waitPods("victim", "replaced", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodRunning) == 1 })
	assert.NotEqual(t, first, pods[0].Name)
	e.waitIdle()
	j := e.getJob("victim")
	assert.Equal(t, int32(1), j.Status.Failed, "counted once: %s", describeJob(j))
	assert.Equal(t, int32(1), j.Status.Active, describeJob(j))
	assert.False(t, finished(j), describeJob(j))
}
