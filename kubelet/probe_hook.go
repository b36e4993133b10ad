package kubelet

import (
	"context"
	"net/http"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// Prober runs one readiness or liveness probe of a running container and
// reports whether it passed, and what it said if not (the message of the
// Unhealthy event). Options.Prober replaces the kubelet's own probe
// handlers (exec, httpGet, tcpSocket) with one: how a workshop exercise,
// or a test, writes the check itself. The kubelet still decides when a
// probe is due (initialDelaySeconds, periodSeconds) and turns results
// into Ready through successThreshold and failureThreshold.
//
// Probe is called from the pod's worker, one probe at a time per pod; it
// must return by the time ctx ends, which is the probe's timeout on the
// kubelet's clock.
type Prober interface {
	Probe(ctx context.Context, target ProbeTarget) (ok bool, output string)
}

// ProberFunc adapts a function to Prober.
type ProberFunc func(ctx context.Context, target ProbeTarget) (ok bool, output string)

// Probe calls f.
func (f ProberFunc) Probe(ctx context.Context, target ProbeTarget) (bool, string) {
	return f(ctx, target)
}

// ProbeTarget is the container a probe checks, and the ways to reach it.
// The objects are shared with the kubelet: read them, never change them.
type ProbeTarget struct {
	Pod       *corev1.Pod
	Container *corev1.Container
	// Probe is the container's ReadinessProbe or LivenessProbe.
	Probe *corev1.Probe
	// PodIP is the pod's IP: the host of an httpGet or tcpSocket probe
	// that names none.
	PodIP string
	// Timeout is the probe's timeoutSeconds (at least one second), which
	// also bounds ctx.
	Timeout time.Duration
	// Exec runs cmd in the container as an exec probe does (the CRI's
	// ExecSync): a zero ExitCode passes.
	Exec func(ctx context.Context, cmd []string) (cri.ExecSyncResult, error)
	// HTTPClient reaches the pod's servers (pod IPs exist only inside the
	// runtime, and it dials through it), follows no redirect to another
	// host and keeps no connection.
	HTTPClient *http.Client
}

// runProbe runs one probe with Options.Prober when there is one, and with
// the kubelet's own handlers otherwise.
func (k *Kubelet) runProbe(ctx context.Context, pod *corev1.Pod, c *corev1.Container, cs *cri.ContainerStatus, sb *cri.PodSandboxStatus, p *corev1.Probe) (bool, string) {
	if k.prober == nil {
		return k.probe(ctx, pod, c, cs, sb, p)
	}
	timeout := time.Duration(max(p.TimeoutSeconds, 1)) * time.Second
	ctx, stop := k.withClockTimeout(ctx, timeout)
	defer stop()
	return k.prober.Probe(ctx, ProbeTarget{
		Pod: pod, Container: c, Probe: p, PodIP: sb.Network.IP, Timeout: timeout,
		Exec: func(ctx context.Context, cmd []string) (cri.ExecSyncResult, error) {
			return k.runtime.ExecSync(ctx, cs.ID, cmd, timeout)
		},
		HTTPClient: k.probeClient,
	})
}
