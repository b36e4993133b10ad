package v1

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

// TestDecodeRoundTrip decodes what `kubectl create deployment` sends and
// live objects encoded by k8s.io/api, with no unknown field, and encodes
// them back to the same document.
func TestDecodeRoundTrip(t *testing.T) {
	tests := []struct {
		file string
		obj  runtime.Object
	}{
		{file: "kubectl-create-deployment.yaml", obj: &Deployment{}},
		{file: "deployment-live.json", obj: &Deployment{}},
		{file: "replicaset-live.json", obj: &ReplicaSet{}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data := runtimetest.DecodeFile(t, tc.file, tc.obj)
			out, err := runtime.Encode(tc.obj)
			require.NoError(t, err, "Encode(%s)", tc.file)
			again := reflect.New(reflect.TypeOf(tc.obj).Elem()).Interface().(runtime.Object)
			unknown, err := runtime.Decode(out, again)
			require.NoError(t, err, "Decode(Encode(%s))", tc.file)
			assert.Empty(t, unknown, "unknown fields in Encode(%s)", tc.file)
			assert.Equal(t, tc.obj, again, "Decode(Encode(%s))", tc.file)
			assert.Equal(t, upstreamOnly(runtimetest.ToGeneric(t, data)), upstreamOnly(runtimetest.ToGeneric(t, out)),
				"Encode(Decode(%s)) differs from the upstream output", tc.file)
		})
	}
}

func TestDecodeDeploymentFields(t *testing.T) {
	var d Deployment
	runtimetest.DecodeFile(t, "kubectl-create-deployment.yaml", &d)
	assert.Equal(t, "Deployment", d.Kind)
	assert.Equal(t, "apps/v1", d.APIVersion)
	assert.Equal(t, ptrTo(int32(2)), d.Spec.Replicas)
	assert.Equal(t, map[string]string{"app": "web"}, d.Spec.Selector.MatchLabels)
	assert.Equal(t, "nginx", d.Spec.Template.Spec.Containers[0].Image)

	var live Deployment
	runtimetest.DecodeFile(t, "deployment-live.json", &live)
	ru := live.Spec.Strategy.RollingUpdate
	assert.Equal(t, ptrTo(intstr.FromString("25%")), ru.MaxSurge)
	assert.Equal(t, ptrTo(intstr.FromInt32(1)), ru.MaxUnavailable)
	require.Len(t, live.Status.Conditions, 2)
	assert.Equal(t, DeploymentProgressing, live.Status.Conditions[1].Type)
	assert.Equal(t, corev1.ConditionTrue, live.Status.Conditions[1].Status)
	assert.Equal(t, "NewReplicaSetAvailable", live.Status.Conditions[1].Reason)
	assert.False(t, live.Status.Conditions[1].LastUpdateTime.IsZero())

	var rs ReplicaSet
	runtimetest.DecodeFile(t, "replicaset-live.json", &rs)
	assert.Equal(t, "6d4cf56db6", rs.Labels[DefaultDeploymentUniqueLabelKey])
	assert.Equal(t, "Deployment", rs.OwnerReferences[0].Kind)
	assert.Equal(t, int32(3), rs.Status.FullyLabeledReplicas)
}

// upstreamOnly is runtimetest.UpstreamOnly with the keys under which
// upstream writes the apps group's empty objects.
func upstreamOnly(v any) any {
	return runtimetest.UpstreamOnly(v, "resources", "status", "spec", "strategy")
}
