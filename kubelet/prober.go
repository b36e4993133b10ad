package kubelet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/kubelet/cri"
)

// maxProbeOutput bounds the output of a probe kept for its Unhealthy
// event, as upstream's prober does (10 KiB).
const maxProbeOutput = 10 << 10

// containerProbes are the probe states of one run of a container.
type containerProbes struct {
	readiness, liveness *probeState
}

// probeState is one probe of one container run: when it is due next, and
// its result, which flips only after successThreshold successes or
// failureThreshold failures in a row.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/prober (worker), which is a
// goroutine per probe; here a probe is a time in the pod's wake-up.
type probeState struct {
	probe               *corev1.Probe
	nextAt              time.Time
	successes, failures int32
	// ok is the result: readiness starts failed, liveness passed.
	ok bool
}

func newProbeState(p *corev1.Probe, started time.Time, ok bool) *probeState {
	if p == nil {
		return nil
	}
	return &probeState{probe: p, nextAt: started.Add(time.Duration(p.InitialDelaySeconds) * time.Second), ok: ok}
}

// ready reports whether a running container is ready: it has no
// readiness probe, or the probe passes.
func (st *podState) ready(id string, c *corev1.Container) bool {
	if c.ReadinessProbe == nil {
		return true
	}
	cp := st.probes[id]
	return cp != nil && cp.readiness != nil && cp.readiness.ok
}

// livenessFailed reports whether a running container's liveness probe
// failed.
func (st *podState) livenessFailed(id string) bool {
	cp := st.probes[id]
	return cp != nil && cp.liveness != nil && !cp.liveness.ok
}

// runProbes runs the readiness and liveness probes that are due, of every
// running container, and asks to be woken when the next one is due.
func (k *Kubelet) runProbes(ctx context.Context, pod *corev1.Pod, rt *podRuntime, sb *cri.PodSandboxStatus, st *podState, res *syncResult) {
	live := map[string]bool{}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		cs := rt.latest(c.Name)
		if cs == nil || cs.State != cri.ContainerRunning || (c.ReadinessProbe == nil && c.LivenessProbe == nil) {
			continue
		}
		live[cs.ID] = true
		cp := st.probes[cs.ID]
		if cp == nil {
			cp = &containerProbes{
				readiness: newProbeState(c.ReadinessProbe, cs.StartedAt, false),
				liveness:  newProbeState(c.LivenessProbe, cs.StartedAt, true),
			}
			if st.probes == nil {
				st.probes = map[string]*containerProbes{}
			}
			st.probes[cs.ID] = cp
		}
		for _, p := range []struct {
			kind  string
			state *probeState
		}{{"Readiness", cp.readiness}, {"Liveness", cp.liveness}} {
			if p.state == nil {
				continue
			}
			if now := k.clock.Now(); !now.Before(p.state.nextAt) {
				ok, output := k.runProbe(ctx, pod, c, cs, sb, p.state.probe)
				if ctx.Err() != nil {
					return
				}
				p.state.record(ok)
				if !ok {
					k.event(pod, corev1.EventTypeWarning, "Unhealthy", "%s probe failed: %s", p.kind, output)
				}
				p.state.nextAt = now.Add(probePeriod(p.state.probe))
			}
			res.wakeAtOrEarlier(p.state.nextAt)
		}
	}
	for id := range st.probes {
		if !live[id] {
			delete(st.probes, id)
		}
	}
}

// defaultProbePeriod is the API's default periodSeconds, for a probe that
// did not go through the API server's defaulting.
const defaultProbePeriod = 10 * time.Second

func probePeriod(p *corev1.Probe) time.Duration {
	if p.PeriodSeconds <= 0 {
		return defaultProbePeriod
	}
	return time.Duration(p.PeriodSeconds) * time.Second
}

// record counts one result and flips ok at the thresholds.
func (ps *probeState) record(ok bool) {
	if ok {
		ps.successes, ps.failures = ps.successes+1, 0
		if ps.successes >= max(ps.probe.SuccessThreshold, 1) {
			ps.ok = true
		}
		return
	}
	ps.successes, ps.failures = 0, ps.failures+1
	if ps.failures >= max(ps.probe.FailureThreshold, 1) {
		ps.ok = false
	}
}

// probe runs one probe of a container and reports whether it passed, and
// what it said if not. Its timeout runs on the kubelet's clock.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/prober (prober.runProbe).
func (k *Kubelet) probe(ctx context.Context, pod *corev1.Pod, c *corev1.Container, cs *cri.ContainerStatus, sb *cri.PodSandboxStatus, p *corev1.Probe) (bool, string) {
	timeout := time.Duration(max(p.TimeoutSeconds, 1)) * time.Second
	switch {
	case p.Exec != nil:
		res, err := k.runtime.ExecSync(ctx, cs.ID, p.Exec.Command, timeout)
		if errors.Is(err, context.DeadlineExceeded) {
			return false, fmt.Sprintf("command timed out: %q timed out after %v", strings.Join(p.Exec.Command, " "), timeout)
		}
		if err != nil {
			return false, err.Error()
		}
		out := truncate(string(res.Stdout) + string(res.Stderr))
		if res.ExitCode != 0 {
			if out == "" {
				out = fmt.Sprintf("command %q exited with %d", strings.Join(p.Exec.Command, " "), res.ExitCode)
			}
			return false, out
		}
		return true, ""
	case p.HTTPGet != nil:
		ctx, stop := k.withClockTimeout(ctx, timeout)
		defer stop()
		return k.probeHTTP(ctx, c, sb, p.HTTPGet)
	case p.TCPSocket != nil:
		ctx, stop := k.withClockTimeout(ctx, timeout)
		defer stop()
		port, err := probePort(p.TCPSocket.Port, c)
		if err != nil {
			return false, err.Error()
		}
		host := cmpOr(p.TCPSocket.Host, sb.Network.IP)
		conn, err := k.dial(ctx, net.JoinHostPort(host, strconv.Itoa(port)))
		if err != nil {
			return false, err.Error()
		}
		_ = conn.Close()
		return true, ""
	}
	return false, "minicp runs exec, httpGet and tcpSocket probes only"
}

func (k *Kubelet) probeHTTP(ctx context.Context, c *corev1.Container, sb *cri.PodSandboxStatus, h *corev1.HTTPGetAction) (bool, string) {
	port, err := probePort(h.Port, c)
	if err != nil {
		return false, err.Error()
	}
	scheme := strings.ToLower(string(h.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	path := h.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(cmpOr(h.Host, sb.Network.IP), strconv.Itoa(port)), Path: path}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, err.Error()
	}
	req.Header.Set("User-Agent", "kube-probe/1.32")
	for _, hh := range h.HTTPHeaders {
		req.Header.Add(hh.Name, hh.Value)
	}
	resp, err := k.probeClient.Do(req)
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxProbeOutput))
	// Upstream's rule: 2xx and 3xx pass.
	if resp.StatusCode >= 200 && resp.StatusCode < 400 {
		return true, ""
	}
	return false, fmt.Sprintf("HTTP probe failed with statuscode: %d%s", resp.StatusCode, bodySuffix(body))
}

func bodySuffix(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	return ", " + truncate(string(body))
}

func truncate(s string) string {
	if len(s) > maxProbeOutput {
		return s[:maxProbeOutput]
	}
	return s
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// probePort resolves a probe's port, a number or the name of one of the
// container's ports.
func probePort(p intstr.IntOrString, c *corev1.Container) (int, error) {
	if p.Type == intstr.Int {
		if p.IntVal <= 0 || p.IntVal > 65535 {
			return 0, fmt.Errorf("invalid port number: %d", p.IntVal)
		}
		return int(p.IntVal), nil
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return int(cp.ContainerPort), nil
		}
	}
	if n, err := strconv.Atoi(p.StrVal); err == nil && n > 0 && n < 65536 {
		return n, nil
	}
	return 0, fmt.Errorf("couldn't find port: %s in container %s", p.StrVal, c.Name)
}

// dial connects to a pod address through the runtime, or the host's
// network when the runtime cannot.
func (k *Kubelet) dial(ctx context.Context, address string) (net.Conn, error) {
	if k.dialer != nil {
		return k.dialer.DialContext(ctx, "tcp", address)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", address)
}

// newProbeClient returns the HTTP client of httpGet probes: it dials
// through the runtime when it can, keeps no idle connection (a probe every
// few seconds per container would otherwise hold a connection and its
// goroutines each), and follows no redirect to another host.
func newProbeClient(dialer contextDialer) *http.Client {
	tr := &http.Transport{DisableKeepAlives: true, DisableCompression: true}
	if dialer != nil {
		tr.DialContext = dialer.DialContext
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			// 10 redirects is net/http's own limit.
			if len(via) >= 10 || req.URL.Host != via[0].URL.Host {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}

// withClockTimeout returns a context that ends when d passes on the
// kubelet's clock, for I/O whose timeout must follow a fake clock. stop
// releases the timer and the goroutine waiting on it; call it when done.
func (k *Kubelet) withClockTimeout(ctx context.Context, d time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	t := k.clock.NewTimer(d)
	doneCh := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-t.C():
			cancel()
		case <-doneCh:
		}
	})
	return ctx, func() {
		close(doneCh)
		t.Stop()
		wg.Wait()
		cancel()
	}
}
