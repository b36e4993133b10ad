package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
)

func container(name string, requests, limits corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: requests, Limits: limits}}
}

func resources(cpu, mem string) corev1.ResourceList {
	l := corev1.ResourceList{}
	if cpu != "" {
		l[corev1.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		l[corev1.ResourceMemory] = resource.MustParse(mem)
	}
	return l
}

func TestContainerUsage(t *testing.T) {
	started := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	const mi = 1 << 20
	tests := []struct {
		name             string
		c                corev1.Container
		after            time.Duration
		windows          int
		cpuMin, cpuMax   int64
		memMin, memMaxIn int64
	}{
		{"requests, just started", container("a", resources("200m", "128Mi"), nil), 0, 1, 60, 160, 64 * mi, 72 * mi},
		{"requests, warmed up", container("a", resources("200m", "128Mi"), nil), 5 * time.Minute, 20, 60, 160, 83 * mi, 90 * mi},
		{"limits only: half of them", container("b", nil, resources("1", "1Gi")), time.Hour, 20, 150, 400, 332 * mi, 359 * mi},
		{"never above the limit", container("c", resources("2", "1Gi"), resources("100m", "256Mi")), time.Hour, 20, 100, 100, 256 * mi, 256 * mi},
		{"nothing asked: idle", container("d", nil, nil), time.Hour, 20, 1, 1, 1536 << 10, 2048 << 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for w := range tc.windows {
				end := started.Add(tc.after + time.Duration(w)*statsv1alpha1.Window)
				u := containerUsage("ns", "pod", &tc.c, started, end)
				assert.True(t, u.cpuMilli >= tc.cpuMin && u.cpuMilli <= tc.cpuMax, "window %d: cpu %dm", w, u.cpuMilli)
				assert.True(t, u.memoryBytes >= tc.memMin && u.memoryBytes <= tc.memMaxIn, "window %d: memory %d", w, u.memoryBytes)
				assert.Zero(t, u.memoryBytes%1024, "memory is counted in KiB")
				assert.Equal(t, u, containerUsage("ns", "pod", &tc.c, started, end), "the same window measures the same")
			}
		})
	}
}

func TestContainerUsageVaries(t *testing.T) {
	started := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	c := container("a", resources("1", "1Gi"), nil)
	seen := map[int64]bool{}
	for w := range 10 {
		seen[containerUsage("ns", "pod", &c, started, started.Add(time.Duration(w)*statsv1alpha1.Window)).cpuMilli] = true
	}
	assert.Greater(t, len(seen), 5, "CPU usage moves from window to window")
	other := containerUsage("ns", "other", &c, started, started.Add(time.Hour))
	assert.NotEqual(t, containerUsage("ns", "pod", &c, started, started.Add(time.Hour)), other, "pods differ")
}

func TestPodStats(t *testing.T) {
	started := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	end := started.Add(time.Minute)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "u1"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			container("server", resources("100m", "64Mi"), nil), container("waiting", nil, nil),
		}},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{
			{Name: "server", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(started)}}},
			{Name: "waiting", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}},
		}},
	}
	ps, total, ok := podStats(pod, end)
	require.True(t, ok)
	require.Len(t, ps.Containers, 1, "only running containers are measured")
	assert.Equal(t, "server", ps.Containers[0].Name)
	assert.Equal(t, statsv1alpha1.PodReference{Name: "web", Namespace: "shop", UID: "u1"}, ps.PodRef)
	assert.Equal(t, uint64(total.cpuMilli)*1e6, *ps.CPU.UsageNanoCores)
	assert.Equal(t, uint64(total.memoryBytes), *ps.Memory.WorkingSetBytes)
	assert.True(t, ps.CPU.Time.Equal(end))

	pod.Status.ContainerStatuses = pod.Status.ContainerStatuses[1:]
	_, _, ok = podStats(pod, end)
	assert.False(t, ok, "a pod with no running container has no stats")
}
