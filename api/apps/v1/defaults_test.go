package v1

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"

	"github.com/minicp/minicp/api/runtime/runtimetest"
)

func TestSetDefaultsDeployment(t *testing.T) {
	var d Deployment
	runtimetest.DecodeFile(t, "kubectl-create-deployment.yaml", &d)
	SetDefaults(&d)
	spec := d.Spec
	assert.Equal(t, ptrTo(int32(2)), spec.Replicas, "replicas given are kept")
	assert.Equal(t, RollingUpdateDeploymentStrategyType, spec.Strategy.Type)
	assert.Equal(t, ptrTo(intstr.FromString("25%")), spec.Strategy.RollingUpdate.MaxSurge)
	assert.Equal(t, ptrTo(intstr.FromString("25%")), spec.Strategy.RollingUpdate.MaxUnavailable)
	assert.Equal(t, ptrTo(int32(10)), spec.RevisionHistoryLimit)
	assert.Equal(t, ptrTo(int32(600)), spec.ProgressDeadlineSeconds)
	pod := spec.Template.Spec
	assert.Equal(t, corev1.RestartPolicyAlways, pod.RestartPolicy)
	assert.Equal(t, corev1.DNSClusterFirst, pod.DNSPolicy)
	assert.Equal(t, corev1.PullAlways, pod.Containers[0].ImagePullPolicy, "nginx means nginx:latest")
	assert.Nil(t, pod.EnableServiceLinks, "only pods get enableServiceLinks, not templates")

	again := *d.DeepCopy()
	SetDefaults(&again)
	assert.Equal(t, d, again, "SetDefaults is idempotent")

	var live Deployment
	runtimetest.DecodeFile(t, "deployment-live.json", &live)
	defaulted := *live.DeepCopy()
	SetDefaults(&defaulted)
	assert.Equal(t, live, defaulted, "a live Deployment is already defaulted")

	tests := []struct {
		name string
		d    Deployment
		want DeploymentSpec
	}{
		{
			name: "empty", d: Deployment{},
			want: DeploymentSpec{Replicas: ptrTo(int32(1)), RevisionHistoryLimit: ptrTo(int32(10)), ProgressDeadlineSeconds: ptrTo(int32(600)),
				Strategy: DeploymentStrategy{Type: RollingUpdateDeploymentStrategyType, RollingUpdate: &RollingUpdateDeployment{
					MaxUnavailable: ptrTo(intstr.FromString("25%")), MaxSurge: ptrTo(intstr.FromString("25%"))}}},
		},
		{
			name: "recreate", d: Deployment{Spec: DeploymentSpec{Replicas: ptrTo(int32(0)), Strategy: DeploymentStrategy{Type: RecreateDeploymentStrategyType}}},
			want: DeploymentSpec{Replicas: ptrTo(int32(0)), RevisionHistoryLimit: ptrTo(int32(10)), ProgressDeadlineSeconds: ptrTo(int32(600)),
				Strategy: DeploymentStrategy{Type: RecreateDeploymentStrategyType}},
		},
		{
			name: "partial rolling update", d: Deployment{Spec: DeploymentSpec{Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdateDeployment{MaxSurge: ptrTo(intstr.FromInt32(0))}}}},
			want: DeploymentSpec{Replicas: ptrTo(int32(1)), RevisionHistoryLimit: ptrTo(int32(10)), ProgressDeadlineSeconds: ptrTo(int32(600)),
				Strategy: DeploymentStrategy{Type: RollingUpdateDeploymentStrategyType, RollingUpdate: &RollingUpdateDeployment{
					MaxUnavailable: ptrTo(intstr.FromString("25%")), MaxSurge: ptrTo(intstr.FromInt32(0))}}},
		},
	}
	for _, tc := range tests {
		SetDefaults(&tc.d)
		tc.d.Spec.Template = corev1.PodTemplateSpec{}
		assert.Equal(t, tc.want, tc.d.Spec, "SetDefaults(%s)", tc.name)
	}
}

func TestSetDefaultsReplicaSet(t *testing.T) {
	list := ReplicaSetList{Items: []ReplicaSet{{Spec: ReplicaSetSpec{Template: corev1.PodTemplateSpec{
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox:1"}}}}}}}}
	SetDefaults(&list)
	rs := list.Items[0]
	assert.Equal(t, ptrTo(int32(1)), rs.Spec.Replicas, "a list defaults its items")
	assert.Equal(t, corev1.PullIfNotPresent, rs.Spec.Template.Spec.Containers[0].ImagePullPolicy)

	var pod corev1.Pod
	SetDefaults(&pod)
	assert.Equal(t, corev1.Pod{}, pod, "kinds of other packages are left alone")
}
