package job_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// TestJobWithoutCompletions: a Job with parallelism 2 and no completions
// is a work queue: once a pod succeeds no new pod starts, and the Job
// completes when the pods still running have finished.
func TestJobWithoutCompletions(t *testing.T) {
	e := newEnv(t, 1)
	j := newJob("queue", "sleep 1; exit 0", func(j *batchv1.Job) { j.Spec.Parallelism = ptrTo(int32(2)) })
	created := e.create(j)
	require.Nil(t, created.Spec.Completions, "no completions")
	e.waitPods("queue", "running", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodRunning) == 2 })
	e.waitIdle()
	e.clk.Step(time.Second)

	j = e.waitJob("queue", "complete", finished)
	assert.True(t, hasCondition(j, batchv1.JobComplete), describeJob(j))
	assert.Equal(t, int32(2), j.Status.Succeeded)
	e.waitIdle()
	assert.Len(t, e.pods("queue"), 2, "no pod started after the first success")
}

// TestJobSuspend: a Job created suspended runs no pod and has no
// startTime; resumed (Suspended becomes False) it starts; suspended while
// running, its pods are deleted without counting as failures; resumed
// again, its startTime restarts, since activeDeadlineSeconds counts the
// time a Job is continuously active.
func TestJobSuspend(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("paused", "sleep 3600", func(j *batchv1.Job) {
		j.Spec.Suspend = ptrTo(true)
		j.Spec.Template.Spec.TerminationGracePeriodSeconds = ptrTo(int64(0))
	}))
	j := e.waitJob("paused", "suspended", func(j *batchv1.Job) bool { return hasCondition(j, batchv1.JobSuspended) })
	assert.Equal(t, "JobSuspended", condition(j, batchv1.JobSuspended).Reason)
	assert.Nil(t, j.Status.StartTime, "a suspended Job has not started")
	e.waitIdle()
	assert.Empty(t, e.pods("paused"), "no pod while suspended")

	setSuspend := func(v bool) {
		t.Helper()
		patch := fmt.Sprintf(`{"spec":{"suspend":%t}}`, v)
		_, err := e.cs.Jobs(ns).Patch(t.Context(), "paused", client.MergePatchType, []byte(patch), client.WriteOptions{})
		require.NoError(t, err, "suspend=%v", v)
	}
	resumed := func(j *batchv1.Job) bool {
		c := condition(j, batchv1.JobSuspended)
		return c != nil && c.Status == corev1.ConditionFalse && j.Status.Active == 1
	}
	setSuspend(false)
	j = e.waitJob("paused", "resumed", resumed)
	assert.Equal(t, "JobResumed", condition(j, batchv1.JobSuspended).Reason)
	require.NotNil(t, j.Status.StartTime)
	assert.Equal(t, epoch, j.Status.StartTime.UTC(), "started when resumed")
	e.waitPods("paused", "running", func(pods []corev1.Pod) bool { return countPhase(pods, corev1.PodRunning) == 1 })
	e.waitIdle()
	e.clk.Step(10 * time.Second)

	setSuspend(true)
	e.waitJob("paused", "suspended again", func(j *batchv1.Job) bool {
		return hasCondition(j, batchv1.JobSuspended) && j.Status.Active == 0
	})
	e.waitPods("paused", "deleted", func(pods []corev1.Pod) bool { return len(pods) == 0 })
	e.waitIdle()
	j = e.getJob("paused")
	assert.Equal(t, int32(0), j.Status.Failed, "suspending fails nothing: %s", describeJob(j))

	e.clk.Step(20 * time.Second)
	setSuspend(false)
	j = e.waitJob("paused", "resumed again", resumed)
	assert.Equal(t, epoch.Add(30*time.Second), j.Status.StartTime.UTC(), "the start time restarts at the resume")
	e.waitEvents("paused", "Suspended", "Resumed", "SuccessfulCreate", "SuccessfulDelete")
	assert.False(t, finished(j))
}

// TestJobIndexed: an Indexed Job runs one pod per index, each knowing its
// index (JOB_COMPLETION_INDEX, annotation, label, hostname), and lists the
// completed indexes.
func TestJobIndexed(t *testing.T) {
	e := newEnv(t, 2)
	e.create(newJob("indexed", `echo "index $JOB_COMPLETION_INDEX on $(hostname)"; exit 0`, func(j *batchv1.Job) {
		j.Spec.Completions, j.Spec.Parallelism = ptrTo(int32(3)), ptrTo(int32(3))
		j.Spec.CompletionMode = ptrTo(batchv1.IndexedCompletion)
	}))
	j := e.waitJob("indexed", "complete", finished)
	assert.True(t, hasCondition(j, batchv1.JobComplete), describeJob(j))
	assert.Equal(t, "0-2", j.Status.CompletedIndexes)
	assert.Equal(t, int32(3), j.Status.Succeeded)

	pods := e.pods("indexed")
	require.Len(t, pods, 3)
	var indexes []string
	for _, p := range pods {
		ix := p.Annotations[batchv1.JobCompletionIndexAnnotation]
		indexes = append(indexes, ix)
		assert.Equal(t, ix, p.Labels[batchv1.JobCompletionIndexAnnotation], "label of %s", p.Name)
		assert.Equal(t, "indexed-"+ix, p.Spec.Hostname, "hostname of %s", p.Name)
		assert.Regexp(t, "^indexed-"+ix+"-[a-z0-9]{5}$", p.Name)
		assert.Contains(t, e.logs(p.Name), "index "+ix+" on indexed-"+ix, "the container knows its index")
	}
	slices.Sort(indexes)
	assert.Equal(t, []string{"0", "1", "2"}, indexes)
}

// TestJobPodFailurePolicyIgnore: failures whose exit code the policy
// ignores do not count towards backoffLimit, even 0: the pods are
// replaced (after the usual backoff) and the Job goes on.
func TestJobPodFailurePolicyIgnore(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("policy", "exit 7", func(j *batchv1.Job) {
		j.Spec.BackoffLimit = ptrTo(int32(0))
		j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{
			{Action: batchv1.PodFailurePolicyActionIgnore, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
				Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{7}}},
			{Action: batchv1.PodFailurePolicyActionFailJob, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
				Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{42}}},
		}}
	}))
	// A failed pod without its finalizer is one the controller handled.
	handled := func(n int) func([]corev1.Pod) bool {
		return func(pods []corev1.Pod) bool {
			done := 0
			for _, p := range pods {
				if p.Status.Phase == corev1.PodFailed && !slices.Contains(p.Finalizers, batchv1.JobTrackingFinalizer) {
					done++
				}
			}
			return done == n
		}
	}
	for i, backoff := range []time.Duration{10 * time.Second, 20 * time.Second} {
		e.waitPods("policy", "failure handled", handled(i+1))
		e.waitIdle()
		e.clk.Step(backoff)
	}
	pods := e.waitPods("policy", "three failures handled", handled(3))
	e.waitIdle()
	j := e.getJob("policy")
	assert.Equal(t, int32(0), j.Status.Failed, "ignored failures are not counted: %s", describeJob(j))
	assert.False(t, finished(j), "backoffLimit 0 not exceeded: %s", describeJob(j))
	for _, p := range pods {
		if p.Status.Phase == corev1.PodFailed {
			require.Len(t, p.Status.ContainerStatuses, 1, "pod %s", p.Name)
			assert.Equal(t, int32(7), p.Status.ContainerStatuses[0].State.Terminated.ExitCode)
		}
	}
}

// TestJobPodFailurePolicyFailJob: an exit code a FailJob rule names fails
// the Job at its first failure, with reason PodFailurePolicy.
func TestJobPodFailurePolicyFailJob(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("fatal", "exit 42", func(j *batchv1.Job) {
		j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{
			{Action: batchv1.PodFailurePolicyActionFailJob, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
				Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{42}}},
		}}
	}))
	j := e.waitJob("fatal", "failed", finished)
	require.True(t, hasCondition(j, batchv1.JobFailed), describeJob(j))
	cond := condition(j, batchv1.JobFailed)
	assert.Equal(t, batchv1.JobReasonPodFailurePolicy, cond.Reason)
	assert.Regexp(t, `^Container main for pod default/fatal-[a-z0-9]{5} failed with exit code 42 matching FailJob rule at index 0$`, cond.Message)
	assert.Equal(t, int32(1), j.Status.Failed)
	e.waitIdle()
	assert.Len(t, e.pods("fatal"), 1, "no retry")
}

// TestJobOnFailureRestartsCount: with restartPolicy OnFailure a failing
// container restarts in place and its pod never fails; its restarts count
// towards backoffLimit.
func TestJobOnFailureRestartsCount(t *testing.T) {
	e := newEnv(t, 1)
	e.create(newJob("crashy", "exit 1", func(j *batchv1.Job) {
		j.Spec.BackoffLimit = ptrTo(int32(2))
		j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		j.Spec.Template.Spec.TerminationGracePeriodSeconds = ptrTo(int64(0))
	}))
	// The kubelet restarts the container at once, then after its crash
	// loop backoff (10s, 20s...) on the clock: step once it has restarted.
	e.waitPods("crashy", "restarted", func(pods []corev1.Pod) bool {
		return len(pods) == 1 && len(pods[0].Status.ContainerStatuses) == 1 && pods[0].Status.ContainerStatuses[0].RestartCount >= 1
	})
	e.waitIdle()
	e.stepUntil("restarted twice", 10*time.Second, 10, func() bool {
		j := e.getJob("crashy")
		return hasCondition(j, batchv1.JobFailureTarget) || finished(j)
	})
	j := e.waitJob("crashy", "failed", finished)
	require.True(t, hasCondition(j, batchv1.JobFailed), describeJob(j))
	assert.Equal(t, batchv1.JobReasonBackoffLimitExceeded, condition(j, batchv1.JobFailed).Reason)
	assert.Equal(t, int32(1), j.Status.Failed, "the pod deleted as the Job failed counts as failed: %s", describeJob(j))
	e.waitPods("crashy", "the running pod deleted", func(pods []corev1.Pod) bool { return len(pods) == 0 })
}

// TestOrphanPodFinalizerRemoved: a pod carrying the tracking finalizer
// with no Job to count it (no owner, or a deleted Job) gets its finalizer
// removed, so it can be deleted.
func TestOrphanPodFinalizerRemoved(t *testing.T) {
	e := newEnv(t, 0)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "stray", Namespace: ns, Finalizers: []string{batchv1.JobTrackingFinalizer, "example.com/keep"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "busybox"}}},
	}
	_, err := e.cs.Pods(ns).Create(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err)

	// A Job deleted while its pod still runs: the pod is left to the
	// garbage collector, without the finalizer.
	e.create(newJob("gone", "sleep 3600"))
	pods := e.waitPods("gone", "created", func(pods []corev1.Pod) bool { return len(pods) == 1 })
	require.Contains(t, pods[0].Finalizers, batchv1.JobTrackingFinalizer)
	require.NoError(t, e.cs.Jobs(ns).Delete(t.Context(), "gone", metav1.DeleteOptions{}))

	e.waitFor("finalizers removed", func() (bool, string) {
		stray, err := e.cs.Pods(ns).Get(t.Context(), "stray", client.GetOptions{})
		require.NoError(t, err)
		left, err := e.cs.Pods(ns).Get(t.Context(), pods[0].Name, client.GetOptions{})
		require.NoError(t, err)
		return !slices.Contains(stray.Finalizers, batchv1.JobTrackingFinalizer) &&
				!slices.Contains(left.Finalizers, batchv1.JobTrackingFinalizer),
			describePods([]corev1.Pod{*stray, *left})
	})
	stray, err := e.cs.Pods(ns).Get(t.Context(), "stray", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"example.com/keep"}, stray.Finalizers, "other finalizers stay")
}
