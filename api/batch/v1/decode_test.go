package v1

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

// TestDecodeRoundTrip decodes what `kubectl create job` sends, a live Job
// encoded by k8s.io/api and a hand-written manifest, with no unknown field;
// upstream output must encode back as it was.
func TestDecodeRoundTrip(t *testing.T) {
	tests := []struct {
		file  string
		exact bool
	}{
		{file: "kubectl-create-job.yaml", exact: true},
		{file: "job-live.json", exact: true},
		{file: "job-manifest.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var job Job
			data := runtimetest.DecodeFile(t, tc.file, &job)
			out, err := runtime.Encode(&job)
			require.NoError(t, err, "Encode(%s)", tc.file)
			var again Job
			unknown, err := runtime.Decode(out, &again)
			require.NoError(t, err, "Decode(Encode(%s))", tc.file)
			assert.Empty(t, unknown, "unknown fields in Encode(%s)", tc.file)
			assert.Equal(t, job, again, "Decode(Encode(%s))", tc.file)
			if tc.exact {
				assert.Equal(t, upstreamOnly(runtimetest.ToGeneric(t, data)), upstreamOnly(runtimetest.ToGeneric(t, out)),
					"Encode(Decode(%s)) differs from the upstream output", tc.file)
			}
		})
	}
}

func TestDecodeJobFields(t *testing.T) {
	var job Job
	runtimetest.DecodeFile(t, "kubectl-create-job.yaml", &job)
	assert.Equal(t, []string{"sh", "-c", "echo hi"}, job.Spec.Template.Spec.Containers[0].Command)
	assert.Equal(t, corev1.RestartPolicyNever, job.Spec.Template.Spec.RestartPolicy)

	var manifest Job
	runtimetest.DecodeFile(t, "job-manifest.yaml", &manifest)
	assert.Equal(t, ptrTo(IndexedCompletion), manifest.Spec.CompletionMode)
	rules := manifest.Spec.PodFailurePolicy.Rules
	assert.Equal(t, PodFailurePolicyActionFailJob, rules[0].Action)
	assert.Equal(t, []int32{42}, rules[0].OnExitCodes.Values)
	assert.Equal(t, corev1.PodConditionType("DisruptionTarget"), rules[1].OnPodConditions[0].Type)

	var live Job
	runtimetest.DecodeFile(t, "job-live.json", &live)
	assert.Equal(t, "pi", live.Labels[JobNameLabel])
	assert.Equal(t, JobComplete, live.Status.Conditions[1].Type)
	assert.Equal(t, int32(1), live.Status.Succeeded)
	assert.NotNil(t, live.Status.UncountedTerminatedPods)
	assert.Equal(t, 38, int(live.Status.CompletionTime.Sub(live.Status.StartTime.Time).Seconds()))
}

// upstreamOnly is runtimetest.UpstreamOnly with the keys under which
// upstream writes the batch group's empty objects.
func upstreamOnly(v any) any {
	return runtimetest.UpstreamOnly(v, "resources", "status", "spec", "metadata")
}
