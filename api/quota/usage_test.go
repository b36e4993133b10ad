package quota

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

func list(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

func TestPodUsage(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "init", Resources: corev1.ResourceRequirements{Requests: list("cpu", "1")}}},
		Containers: []corev1.Container{
			{Name: "a", Resources: corev1.ResourceRequirements{Requests: list("cpu", "250m", "memory", "64Mi"), Limits: list("memory", "128Mi")}},
			{Name: "b", Resources: corev1.ResourceRequirements{Requests: list("cpu", "250m")}},
		},
	}}
	want := list("count/pods", "1", "pods", "1", "cpu", "1", "requests.cpu", "1", "memory", "64Mi", "requests.memory", "64Mi", "limits.memory", "128Mi")
	assert.True(t, Equal(want, PodUsage(pod)), "the init container's 1 CPU is more than the 500m sum: %v", PodUsage(pod))
	assert.Equal(t, []string{"limits.cpu", "requests.memory"}, MissingCompute(pod, list("limits.cpu", "1", "requests.memory", "1Gi", "requests.cpu", "4")))

	pod.Status.Phase = corev1.PodSucceeded
	assert.True(t, Equal(list("count/pods", "1"), PodUsage(pod)), "a finished pod keeps only its count")
}

func TestCounts(t *testing.T) {
	assert.True(t, Equal(list("count/services", "1", "services", "1"), ObjectCount(runtime.GroupResource{Resource: "services"})))
	assert.True(t, Equal(list("count/deployments.apps", "1"), ObjectCount(runtime.GroupResource{Group: "apps", Resource: "deployments"})))
	for name, want := range map[corev1.ResourceName]runtime.GroupResource{
		"count/deployments.apps":    {Group: "apps", Resource: "deployments"},
		"count/widgets.example.com": {Group: "example.com", Resource: "widgets"},
		"configmaps":                {Resource: "configmaps"},
	} {
		gr, ok := CountedResource(name)
		assert.True(t, ok, name)
		assert.Equal(t, want, gr, name)
	}
	_, ok := CountedResource("requests.cpu")
	assert.False(t, ok)
}
