package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

func execProbe(cmd ...string) *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: cmd}},
		PeriodSeconds: 5, FailureThreshold: 1, SuccessThreshold: 1, TimeoutSeconds: 1,
	}
}

// TestReadinessProbeFailingKeepsPodNotReady: a container whose readiness
// probe fails runs, but neither it nor the pod is ready, however long the
// probe keeps failing; once it passes, both are.
func TestReadinessProbeFailingKeepsPodNotReady(t *testing.T) {
	h := newHarness(t)
	pod := busybox("unready", corev1.RestartPolicyAlways, "sleep 3600")
	pod.Spec.Containers[0].ReadinessProbe = execProbe("cat", "/tmp/ready")
	h.run(pod)
	h.waitPod("unready", "Running", phaseIs(corev1.PodRunning))
	for range 4 {
		h.step(5 * time.Second)
		p, err := h.cs.Pods("default").Get(t.Context(), "unready", client.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, corev1.PodRunning, p.Status.Phase)
		assert.False(t, containerStatus(p, "main").Ready, "container ready at %v", h.clock.Now())
		assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.PodReady), "pod Ready at %v", h.clock.Now())
		assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.ContainersReady))
	}
	events := h.waitEvents("unready", "Unhealthy")
	for _, e := range events {
		if e.Reason == "Unhealthy" {
			assert.Contains(t, e.Message, "Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory")
		}
	}
}

// TestReadinessProbePasses: a container whose readiness probe starts
// passing becomes ready at the next probe after that.
func TestReadinessProbePasses(t *testing.T) {
	h := newHarness(t)
	pod := busybox("warmup", corev1.RestartPolicyAlways, "sleep 12; touch /tmp/ready; sleep 3600")
	probe := execProbe("cat", "/tmp/ready")
	probe.InitialDelaySeconds = 2
	pod.Spec.Containers[0].ReadinessProbe = probe
	h.run(pod)
	h.waitPod("warmup", "Running", phaseIs(corev1.PodRunning))
	// Probes at 2s, 7s, 12s (the file is there from 12s on).
	h.step(2 * time.Second)
	h.step(5 * time.Second)
	p, err := h.cs.Pods("default").Get(t.Context(), "warmup", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.PodReady), "not ready at 7s")
	h.clock.Step(5 * time.Second)
	p = h.waitPod("warmup", "Ready", func(p *corev1.Pod) bool { return condition(p, corev1.PodReady) == corev1.ConditionTrue })
	assert.True(t, containerStatus(p, "main").Ready)
}

// TestHTTPReadinessProbe: an httpGet probe reaches nginx on the pod IP
// through the runtime; a wrong path keeps the pod unready.
func TestHTTPReadinessProbe(t *testing.T) {
	h := newHarness(t)
	for name, path := range map[string]string{"good": "/", "bad": "/missing"} {
		h.run(&corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "nginx", Image: "nginx", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
				ReadinessProbe: &corev1.Probe{
					ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromString("http")}},
					PeriodSeconds: 10, FailureThreshold: 1, SuccessThreshold: 1, TimeoutSeconds: 1,
				},
			}}},
		})
	}
	h.waitPod("good", "Ready", func(p *corev1.Pod) bool { return condition(p, corev1.PodReady) == corev1.ConditionTrue })
	h.waitPod("bad", "Running", phaseIs(corev1.PodRunning))
	h.step(10 * time.Second)
	p, err := h.cs.Pods("default").Get(t.Context(), "bad", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.PodReady))
	h.waitEvents("bad", "Unhealthy")
}

// TestLivenessProbeRestarts: the Kubernetes documentation's exec liveness
// example: the file goes after 30s, the probe fails, and the kubelet kills
// the container (Killing) and starts it again.
func TestLivenessProbeRestarts(t *testing.T) {
	h := newHarness(t)
	pod := busybox("liveness", corev1.RestartPolicyAlways, "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600")
	pod.Spec.TerminationGracePeriodSeconds = ptr(int64(0))
	probe := execProbe("cat", "/tmp/healthy")
	probe.InitialDelaySeconds = 5
	pod.Spec.Containers[0].LivenessProbe = probe
	h.run(pod)
	h.waitPod("liveness", "Running", running("main", 0))
	for range 5 { // the probes at 5s .. 25s pass
		h.step(5 * time.Second)
	}
	p, err := h.cs.Pods("default").Get(t.Context(), "liveness", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), containerStatus(p, "main").RestartCount, "alive at 25s")
	h.clock.Step(5 * time.Second) // the file goes at 30s, and the probe then fails
	p = h.waitPod("liveness", "restarted", running("main", 1))
	last := containerStatus(p, "main").LastTerminationState.Terminated
	require.NotNil(t, last)
	assert.Equal(t, int32(137), last.ExitCode, "killed")
	events := h.waitEvents("liveness", "Unhealthy", "Killing")
	var killing []string
	for _, e := range events {
		if e.Reason == "Killing" {
			killing = append(killing, e.Message)
		}
	}
	assert.Contains(t, killing, "Container main failed liveness probe, will be restarted")
}
