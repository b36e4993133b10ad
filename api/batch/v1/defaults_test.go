package v1

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"

	"github.com/minicp/minicp/api/runtime/runtimetest"
)

func TestSetDefaultsJob(t *testing.T) {
	var job Job
	runtimetest.DecodeFile(t, "kubectl-create-job.yaml", &job)
	SetDefaults(&job)
	spec := job.Spec
	assert.Equal(t, ptrTo(int32(1)), spec.Completions)
	assert.Equal(t, ptrTo(int32(1)), spec.Parallelism)
	assert.Equal(t, ptrTo(int32(6)), spec.BackoffLimit)
	assert.Equal(t, ptrTo(NonIndexedCompletion), spec.CompletionMode)
	assert.Equal(t, ptrTo(false), spec.Suspend)
	assert.Equal(t, ptrTo(TerminatingOrFailed), spec.PodReplacementPolicy)
	assert.Nil(t, spec.Selector, "the API server generates the selector on create")
	assert.Equal(t, corev1.RestartPolicyNever, spec.Template.Spec.RestartPolicy, "a restartPolicy given is kept")
	assert.Equal(t, corev1.PullAlways, spec.Template.Spec.Containers[0].ImagePullPolicy, "busybox means busybox:latest")

	again := *job.DeepCopy()
	SetDefaults(&again)
	assert.Equal(t, job, again, "SetDefaults is idempotent")

	var live Job
	runtimetest.DecodeFile(t, "job-live.json", &live)
	defaulted := *live.DeepCopy()
	SetDefaults(&defaulted)
	assert.Equal(t, live, defaulted, "a live Job is already defaulted")

	tests := []struct {
		name  string
		spec  JobSpec
		check func(*testing.T, *Job)
	}{
		{name: "parallel without completions", spec: JobSpec{Parallelism: ptrTo(int32(3))}, check: func(t *testing.T, j *Job) {
			assert.Nil(t, j.Spec.Completions, "a work queue Job has no completions")
		}},
		{name: "completions only", spec: JobSpec{Completions: ptrTo(int32(5))}, check: func(t *testing.T, j *Job) {
			assert.Equal(t, ptrTo(int32(1)), j.Spec.Parallelism)
		}},
		{name: "backoff per index", spec: JobSpec{BackoffLimitPerIndex: ptrTo(int32(1))}, check: func(t *testing.T, j *Job) {
			assert.Equal(t, ptrTo(int32(math.MaxInt32)), j.Spec.BackoffLimit)
		}},
		{name: "pod failure policy", spec: JobSpec{PodFailurePolicy: &PodFailurePolicy{Rules: []PodFailurePolicyRule{{
			Action: PodFailurePolicyActionIgnore, OnPodConditions: []PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget"}}}}}},
			check: func(t *testing.T, j *Job) {
				assert.Equal(t, corev1.ConditionTrue, j.Spec.PodFailurePolicy.Rules[0].OnPodConditions[0].Status)
				assert.Equal(t, ptrTo(Failed), j.Spec.PodReplacementPolicy)
			}},
		{name: "template labels", spec: JobSpec{Template: corev1.PodTemplateSpec{}}, check: func(t *testing.T, j *Job) {
			assert.Nil(t, j.Labels)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := Job{Spec: tc.spec}
			SetDefaults(&JobList{Items: []Job{j}})
			SetDefaults(&j)
			tc.check(t, &j)
		})
	}

	labeled := Job{Spec: JobSpec{Template: corev1.PodTemplateSpec{}}}
	labeled.Spec.Template.Labels = map[string]string{"app": "render"}
	SetDefaults(&labeled)
	assert.Equal(t, map[string]string{"app": "render"}, labeled.Labels, "a Job without labels gets its template's")
	labeled.Spec.Template.Labels["x"] = "y"
	assert.NotContains(t, labeled.Labels, "x", "the Job's labels are a copy")
}
