package kubelet_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/kubelet"
)

// TestProberOption: a Prober in Options runs the readiness probe instead
// of the kubelet's handlers, on the kubelet's schedule, with an Exec that
// reaches the container.
func TestProberOption(t *testing.T) {
	var calls atomic.Int32
	var allow atomic.Bool
	h := newHarness(t, func(o *kubelet.Options) {
		o.Prober = kubelet.ProberFunc(func(ctx context.Context, target kubelet.ProbeTarget) (bool, string) {
			calls.Add(1)
			if target.PodIP == "" || target.HTTPClient == nil || target.Timeout != time.Second {
				return false, "incomplete target"
			}
			res, err := target.Exec(ctx, target.Probe.Exec.Command)
			if err != nil {
				return false, err.Error()
			}
			return res.ExitCode == 0 && allow.Load(), "not allowed yet"
		})
	})
	pod := busybox("hooked", corev1.RestartPolicyAlways, "touch /tmp/ready; sleep 3600")
	pod.Spec.Containers[0].ReadinessProbe = execProbe("cat", "/tmp/ready")
	h.run(pod)
	h.waitPod("hooked", "Running", phaseIs(corev1.PodRunning))
	h.step(5 * time.Second)
	p, err := h.cs.Pods("default").Get(t.Context(), "hooked", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.PodReady), "the Prober says no")
	require.Positive(t, calls.Load(), "the Prober was called")

	allow.Store(true)
	h.clock.Step(5 * time.Second)
	h.waitPod("hooked", "Ready", func(p *corev1.Pod) bool { return condition(p, corev1.PodReady) == corev1.ConditionTrue })
}
