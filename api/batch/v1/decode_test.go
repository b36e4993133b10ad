package v1

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// decodeFile decodes testdata/name into obj and fails on unknown fields.
func decodeFile(t *testing.T, name string, obj runtime.Object) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err, "read %s", name)
	unknown, err := runtime.Decode(data, obj)
	require.NoError(t, err, "Decode(%s)", name)
	assert.Empty(t, unknown, "unknown fields in %s", name)
	return data
}

// upstreamOnly removes what upstream writes and minicp leaves out: null
// (zero timestamps) anywhere, and the empty objects omitzero drops.
// Everything else must round-trip exactly.
func upstreamOnly(v any) any {
	emptyObjectKeys := map[string]bool{"resources": true, "status": true, "spec": true, "metadata": true}
	switch v := v.(type) {
	case map[string]any:
		for k, elem := range v {
			if elem == nil {
				delete(v, k)
				continue
			}
			v[k] = upstreamOnly(elem)
			if m, ok := v[k].(map[string]any); ok && len(m) == 0 && emptyObjectKeys[k] {
				delete(v, k)
			}
		}
	case []any:
		for i := range v {
			v[i] = upstreamOnly(v[i])
		}
	}
	return v
}

func toGeneric(t *testing.T, data []byte) any {
	t.Helper()
	jsonData, err := yaml.YAMLToJSON(data)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(jsonData, &out))
	return out
}

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
			data := decodeFile(t, tc.file, &job)
			out, err := runtime.Encode(&job)
			require.NoError(t, err, "Encode(%s)", tc.file)
			var again Job
			unknown, err := runtime.Decode(out, &again)
			require.NoError(t, err, "Decode(Encode(%s))", tc.file)
			assert.Empty(t, unknown, "unknown fields in Encode(%s)", tc.file)
			assert.Equal(t, job, again, "Decode(Encode(%s))", tc.file)
			if tc.exact {
				assert.Equal(t, upstreamOnly(toGeneric(t, data)), upstreamOnly(toGeneric(t, out)),
					"Encode(Decode(%s)) differs from the upstream output", tc.file)
			}
		})
	}
}

func TestDecodeJobFields(t *testing.T) {
	var job Job
	decodeFile(t, "kubectl-create-job.yaml", &job)
	assert.Equal(t, []string{"sh", "-c", "echo hi"}, job.Spec.Template.Spec.Containers[0].Command)
	assert.Equal(t, corev1.RestartPolicyNever, job.Spec.Template.Spec.RestartPolicy)

	var manifest Job
	decodeFile(t, "job-manifest.yaml", &manifest)
	assert.Equal(t, ptrTo(IndexedCompletion), manifest.Spec.CompletionMode)
	rules := manifest.Spec.PodFailurePolicy.Rules
	assert.Equal(t, PodFailurePolicyActionFailJob, rules[0].Action)
	assert.Equal(t, []int32{42}, rules[0].OnExitCodes.Values)
	assert.Equal(t, corev1.PodConditionType("DisruptionTarget"), rules[1].OnPodConditions[0].Type)

	var live Job
	decodeFile(t, "job-live.json", &live)
	assert.Equal(t, "pi", live.Labels[JobNameLabel])
	assert.Equal(t, JobComplete, live.Status.Conditions[1].Type)
	assert.Equal(t, int32(1), live.Status.Succeeded)
	assert.NotNil(t, live.Status.UncountedTerminatedPods)
	assert.Equal(t, 38, int(live.Status.CompletionTime.Sub(live.Status.StartTime.Time).Seconds()))
}
