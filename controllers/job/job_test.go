package job_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestJobCompletes walks the seven steps of the Job flow: the Job is
// created, the controller creates a pod from its template (with the
// generated labels, the Job as its controller and the tracking
// finalizer), the scheduler and a kubelet run it, it exits 0, and the
// controller counts it and completes the Job.
func TestJobCompletes(t *testing.T) {
	e := newEnv(t, 1)
	created := e.create(newJob("hello", "echo hi; exit 0"))

	j := e.waitJob("hello", "complete", finished)
	assert.True(t, hasCondition(j, batchv1.JobComplete), "Complete: %s", describeJob(j))
	assert.True(t, hasCondition(j, batchv1.JobSuccessCriteriaMet), "the interim condition stays: %s", describeJob(j))
	assert.Equal(t, batchv1.JobReasonCompletionsReached, condition(j, batchv1.JobComplete).Reason)
	assert.Equal(t, int32(1), j.Status.Succeeded, "succeeded = completions")
	assert.Equal(t, int32(0), j.Status.Failed)
	assert.Equal(t, int32(0), j.Status.Active)
	require.NotNil(t, j.Status.StartTime, "startTime")
	require.NotNil(t, j.Status.CompletionTime, "completionTime")
	assert.Equal(t, epoch, j.Status.StartTime.UTC(), "started on the manager's clock")
	assert.Equal(t, epoch, j.Status.CompletionTime.UTC(), "no time passed on the fake clock")
	require.NotNil(t, j.Status.UncountedTerminatedPods)
	assert.Empty(t, j.Status.UncountedTerminatedPods.Succeeded, "counted, not left uncounted")

	pods := e.pods("hello")
	require.Len(t, pods, 1, "one pod for one completion")
	p := pods[0]
	assert.Equal(t, corev1.PodSucceeded, p.Status.Phase)
	assert.NotEmpty(t, p.Spec.NodeName, "scheduled")
	assert.Equal(t, created.UID, p.Labels[batchv1.ControllerUidLabel])
	assert.Equal(t, "hello", p.Labels[batchv1.JobNameLabel])
	assert.Equal(t, created.UID, p.Labels[batchv1.LegacyControllerUidLabel])
	assert.Equal(t, "hello", p.Labels[batchv1.LegacyJobNameLabel])
	ref := p.ControllerRef()
	require.NotNil(t, ref, "the pod is the Job's")
	assert.Equal(t, "Job", ref.Kind)
	assert.Equal(t, "batch/v1", ref.APIVersion)
	assert.Equal(t, created.UID, ref.UID)
	assert.NotContains(t, p.Finalizers, batchv1.JobTrackingFinalizer, "the finalizer goes once the pod is counted")
	assert.Regexp(t, `^hello-[a-z0-9]{5}$`, p.Name)

	reasons := e.waitEvents("hello", "SuccessfulCreate", "Completed")
	assert.Less(t, slices.Index(reasons, "SuccessfulCreate"), slices.Index(reasons, "Completed"))
}

// TestJobCompletionsAndParallelism: completions=5, parallelism=2 runs
// the pods two at a time (never more), each running until the clock
// moves, and completes after exactly five successes.
func TestJobCompletionsAndParallelism(t *testing.T) {
	e := newEnv(t, 2)
	maxActive := e.watchMaxActive("batch")
	e.create(newJob("batch", "sleep 1; exit 0", func(j *batchv1.Job) {
		j.Spec.Completions, j.Spec.Parallelism = ptrTo(int32(5)), ptrTo(int32(2))
	}))

	for _, want := range []struct {
		running   int
		succeeded int32
	}{{2, 0}, {2, 2}, {1, 4}} {
		pods := e.waitPods("batch", "running", func(pods []corev1.Pod) bool {
			return countPhase(pods, corev1.PodRunning) == want.running
		})
		j := e.waitJob("batch", "counted", func(j *batchv1.Job) bool {
			return j.Status.Succeeded == want.succeeded && j.Status.Active == int32(want.running) &&
				j.Status.Ready != nil && *j.Status.Ready == int32(want.running)
		})
		e.waitIdle()
		pods = e.pods("batch")
		assert.Equal(t, want.running, activePods(pods), "active pods before the step: %s", describePods(pods))
		assert.Len(t, pods, want.running+int(want.succeeded), "no pod more than needed: %s", describePods(pods))
		assert.LessOrEqual(t, e.getJob("batch").Status.Active, int32(2), "status.active: %s", describeJob(j))
		e.clk.Step(time.Second) // the running pods exit 0
	}
	j := e.waitJob("batch", "complete", finished)
	assert.True(t, hasCondition(j, batchv1.JobComplete), describeJob(j))
	assert.Equal(t, int32(5), j.Status.Succeeded)
	e.waitIdle()
	pods := e.pods("batch")
	assert.Len(t, pods, 5, "exactly five pods: %s", describePods(pods))
	assert.Equal(t, 5, countPhase(pods, corev1.PodSucceeded))
	assert.Equal(t, 2, maxActive(), "never more than parallelism pods active at once")
}

// TestJobBackoff: a pod that exits 3 is counted as failed and replaced
// only after the backoff, measured on the manager's clock from the last
// failure: 10s, then 20s, then 40s. At the fourth failure the Job is past
// backoffLimit=3 and fails with BackoffLimitExceeded, with exactly four
// failed pods.
func TestJobBackoff(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("flaky", "echo oops; exit 3", func(j *batchv1.Job) { j.Spec.BackoffLimit = ptrTo(int32(3)) }))

	failedAt := epoch
	for i, backoff := range []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second} {
		e.waitJob("flaky", "failure counted", func(j *batchv1.Job) bool { return j.Status.Failed == int32(i+1) })
		e.waitIdle()
		require.Len(t, e.pods("flaky"), i+1, "no replacement before the backoff")

		e.clk.Step(backoff - time.Second)
		e.waitIdle()
		pods := e.pods("flaky")
		require.Len(t, pods, i+1, "no replacement 1s before the %v backoff: %s", backoff, describePods(pods))

		e.clk.Step(time.Second)
		pods = e.waitPods("flaky", "replaced", func(pods []corev1.Pod) bool { return len(pods) == i+2 })
		replacement := pods[len(pods)-1]
		assert.Equal(t, failedAt.Add(backoff), replacement.CreationTimestamp.UTC(),
			"failure %d: replaced %v after the last failure", i+1, backoff)
		failedAt = failedAt.Add(backoff)
	}

	j := e.waitJob("flaky", "failed", finished)
	require.True(t, hasCondition(j, batchv1.JobFailed), describeJob(j))
	assert.False(t, hasCondition(j, batchv1.JobComplete))
	assert.Equal(t, batchv1.JobReasonBackoffLimitExceeded, condition(j, batchv1.JobFailed).Reason)
	assert.Equal(t, "Job has reached the specified backoff limit", condition(j, batchv1.JobFailed).Message)
	assert.True(t, hasCondition(j, batchv1.JobFailureTarget), "the interim condition came first: %s", describeJob(j))
	assert.Equal(t, int32(4), j.Status.Failed)
	assert.Equal(t, int32(0), j.Status.Succeeded)
	assert.Nil(t, j.Status.CompletionTime, "only a completed Job has a completionTime")
	e.waitIdle()
	pods := e.pods("flaky")
	assert.Len(t, pods, 4, "no pod after the Job failed: %s", describePods(pods))
	assert.Equal(t, 4, countPhase(pods, corev1.PodFailed))
	for _, p := range pods {
		assert.NotContains(t, p.Finalizers, batchv1.JobTrackingFinalizer, "pod %s counted", p.Name)
		require.Len(t, p.Status.ContainerStatuses, 1)
		require.NotNil(t, p.Status.ContainerStatuses[0].State.Terminated)
		assert.Equal(t, int32(3), p.Status.ContainerStatuses[0].State.Terminated.ExitCode, "the exit code reached the pod status")
	}
	e.waitEvents("flaky", "SuccessfulCreate", "BackoffLimitExceeded")
}

// TestJobBackoffLimit: with backoffLimit=2 the Job fails at its third
// failed pod, and there are exactly three.
func TestJobBackoffLimit(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("limited", "exit 3", func(j *batchv1.Job) { j.Spec.BackoffLimit = ptrTo(int32(2)) }))
	for i, backoff := range []time.Duration{10 * time.Second, 20 * time.Second} {
		e.waitJob("limited", "failure counted", func(j *batchv1.Job) bool { return j.Status.Failed == int32(i+1) })
		e.waitIdle()
		e.clk.Step(backoff)
	}
	j := e.waitJob("limited", "failed", finished)
	require.True(t, hasCondition(j, batchv1.JobFailed), describeJob(j))
	assert.Equal(t, batchv1.JobReasonBackoffLimitExceeded, condition(j, batchv1.JobFailed).Reason)
	assert.Equal(t, int32(3), j.Status.Failed)
	e.waitIdle()
	e.clk.Step(time.Hour) // no backoff timer left to create a pod
	e.waitIdle()
	assert.Len(t, e.pods("limited"), 3, "exactly three failed pods")
}

// TestJobActiveDeadline: a Job still running activeDeadlineSeconds after
// it started is failing at once (FailureTarget, DeadlineExceeded) and its
// pods are deleted; it is Failed only once they have terminated, and the
// pods killed count as failed.
func TestJobActiveDeadline(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("slow", "sleep 3600", func(j *batchv1.Job) {
		j.Spec.ActiveDeadlineSeconds = ptrTo(int64(5))
		j.Spec.Parallelism = ptrTo(int32(2))
		j.Spec.Completions = ptrTo(int32(4))
		// Killed at once: no grace period to step through.
		j.Spec.Template.Spec.TerminationGracePeriodSeconds = ptrTo(int64(0))
	}))
	e.waitPods("slow", "running", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodRunning) == 2 })
	e.waitIdle()
	e.clk.Step(4 * time.Second)
	e.waitIdle()
	j := e.getJob("slow")
	assert.Nil(t, condition(j, batchv1.JobFailureTarget), "not before the deadline: %s", describeJob(j))

	// Record every version of the Job from now on.
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	w, err := e.cs.Jobs(ns).Watch(ctx, client.ListOptions{ResourceVersion: j.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()
	e.clk.Step(time.Second)
	var versions []*batchv1.Job
	for j == nil || !finished(j) {
		select {
		case ev, open := <-w.ResultChan():
			require.True(t, open, "the job watch ended")
			if got, ok := ev.Object.(*batchv1.Job); ok && got.Name == "slow" {
				j = got
				versions = append(versions, j)
			}
		case <-ctx.Done():
			t.Fatalf("job slow: not failed within %v; last seen: %s", clustertest.WaitTimeout, describeJob(j))
		}
	}
	require.True(t, hasCondition(j, batchv1.JobFailed), describeJob(j))
	assert.Equal(t, batchv1.JobReasonDeadlineExceeded, condition(j, batchv1.JobFailed).Reason)
	assert.Equal(t, "Job was active longer than specified deadline", condition(j, batchv1.JobFailed).Message)
	assert.Equal(t, int32(2), j.Status.Failed, "the pods killed at the deadline count as failed")
	assert.Equal(t, int32(0), *j.Status.Terminating)
	assert.Equal(t, int32(0), j.Status.Active)
	assert.True(t, slices.ContainsFunc(versions, func(v *batchv1.Job) bool {
		return hasCondition(v, batchv1.JobFailureTarget) && !finished(v) && v.Status.Terminating != nil && *v.Status.Terminating == 2
	}), "FailureTarget first, while the deleted pods terminate; Failed after")
	e.waitPods("slow", "gone", func(pods []corev1.Pod) bool { return len(pods) == 0 })
	e.waitEvents("slow", "SuccessfulCreate", "SuccessfulDelete", "DeadlineExceeded")
}
