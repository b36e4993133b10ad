package simulated_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

func (h *harness) podIP(sandboxID string) netip.Addr {
	h.t.Helper()
	st, err := h.rt.PodSandboxStatus(h.ctx, sandboxID)
	require.NoError(h.t, err)
	return netip.MustParseAddr(st.Network.IP)
}

// get fetches url through the runtime's pod network, on a fresh
// connection.
func (h *harness) get(url string) (*http.Response, string, error) {
	h.t.Helper()
	tr := &http.Transport{DialContext: h.rt.DialContext, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequestWithContext(h.ctx, http.MethodGet, url, nil)
	require.NoError(h.t, err)
	req.Header.Set("User-Agent", "minicp-test")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

func TestNginxServesHTTPUntilStopped(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	sb := h.sandbox("web")
	ip := h.podIP(sb)
	id := h.startIn(sb, cri.ContainerConfig{Image: "nginx:1.27", Ports: []cri.PortMapping{{ContainerPort: 80}}})

	host, ok := h.rt.HostAddr(netip.AddrPortFrom(ip, 80))
	require.True(t, ok, "HostAddr(%s:80)", ip)
	assert.True(t, host.Addr().IsLoopback(), "nginx really listens on loopback, at %s", host)

	// Straight to the real address, as kube-proxy will.
	resp, err := http.Get("http://" + host.String() + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, simulated.NginxWelcomePage, string(body))
	assert.Equal(t, "nginx/1.27.0", resp.Header.Get("Server"))

	// Through the pod IP.
	resp, body2, err := h.get("http://" + ip.String() + "/nope")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, body2, "404 Not Found")

	logs := h.logs(id, cri.LogOptions{Stream: cri.Stdout})
	assert.Contains(t, logs, `"GET / HTTP/1.1" 200 615 "-" "Go-http-client/1.1"`, "access log")
	assert.Contains(t, logs, `"GET /nope HTTP/1.1" 404`, "access log")
	assert.Contains(t, logs, "[06/May/2024:07:00:00 +0000]", "access log time from the clock")

	require.NoError(t, h.rt.StopContainer(h.ctx, id, 30*time.Second))
	st := h.status(id)
	assert.Equal(t, int32(0), st.ExitCode)
	assert.Equal(t, cri.ReasonCompleted, st.Reason)
	_, ok = h.rt.HostAddr(netip.AddrPortFrom(ip, 80))
	assert.False(t, ok, "no address once stopped")
	_, err = net.Dial("tcp", host.String())
	assert.Error(t, err, "the loopback port is closed once StopContainer returns")
	_, _, err = h.get("http://" + ip.String() + "/")
	assert.True(t, errors.Is(err, syscall.ECONNREFUSED), "GET after stop: %v", err)
}

func TestHTTPImages(t *testing.T) {
	tests := []struct {
		name     string
		image    string
		args     []string
		ports    []cri.PortMapping
		port     uint16
		path     string
		wantBody []string
	}{
		{name: "httpd", image: "httpd:2.4", port: 80, path: "/", wantBody: []string{"<h1>It works!</h1>"}},
		{name: "minicp http-echo", image: "minicp/http-echo", port: 8080, path: "/hello?x=1",
			wantBody: []string{"Hostname: echo", "pod name=echo", "pod namespace=default", "pod IP=10.244.3.2",
				"method=GET", "real path=/hello", "query=x=1", "user-agent=minicp-test"}},
		{name: "echo on a declared port", image: "minicp/http-echo", ports: []cri.PortMapping{{ContainerPort: 9000}}, port: 9000, path: "/",
			wantBody: []string{"Hostname: echo"}},
		{name: "echoserver", image: "registry.k8s.io/echoserver:1.10", port: 8080, path: "/", wantBody: []string{"Request Information:"}},
		{name: "hashicorp http-echo", image: "hashicorp/http-echo", args: []string{"-text=hello"}, port: 5678, path: "/", wantBody: []string{"hello\n"}},
		{name: "hashicorp http-echo -listen", image: "hashicorp/http-echo", args: []string{"-listen=:7000", "-text=x"}, port: 7000, path: "/", wantBody: []string{"x\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, simulated.Options{})
			sb := h.sandbox("echo")
			h.startIn(sb, cri.ContainerConfig{Image: tc.image, Args: tc.args, Ports: tc.ports})
			url := "http://" + netip.AddrPortFrom(h.podIP(sb), tc.port).String() + tc.path
			resp, body, err := h.get(url)
			require.NoError(t, err, "GET %s", url)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			for _, want := range tc.wantBody {
				assert.Contains(t, body, want, "GET %s", url)
			}
		})
	}
}

func TestPortsAreSharedInASandbox(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	sb := h.sandbox("two")
	first := h.startIn(sb, cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "a"}, Image: "nginx"})
	second := h.startIn(sb, cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "b"}, Image: "nginx"})
	st := h.status(second)
	assert.Equal(t, cri.ContainerExited, st.State, "the second nginx cannot bind :80")
	assert.Equal(t, int32(1), st.ExitCode)
	assert.Contains(t, h.logs(second, cri.LogOptions{Stream: cri.Stderr}), "bind() to 0.0.0.0:80 failed (98: Address already in use)")
	assert.Equal(t, cri.ContainerRunning, h.status(first).State)

	// Other sandboxes have their own network namespace.
	other := h.startIn(h.sandbox("other"), cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "a"}, Image: "nginx"})
	assert.Equal(t, cri.ContainerRunning, h.status(other).State)
}

func TestDialNonHTTPServers(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	sb := h.sandbox("db")
	ip := h.podIP(sb)
	h.startIn(sb, cri.ContainerConfig{Image: "redis:7"})

	conn, err := h.rt.DialContext(h.ctx, "tcp", netip.AddrPortFrom(ip, 6379).String())
	require.NoError(t, err, "a TCP probe of redis:6379 connects")
	_, err = conn.Read(make([]byte, 1))
	assert.ErrorIs(t, err, io.EOF, "and the server hangs up")
	require.NoError(t, conn.Close())

	_, err = h.rt.DialContext(h.ctx, "tcp", netip.AddrPortFrom(ip, 6380).String())
	assert.ErrorIs(t, err, syscall.ECONNREFUSED, "nobody listens on 6380")
	_, err = h.rt.DialContext(h.ctx, "tcp", "10.9.9.9:80")
	assert.ErrorIs(t, err, syscall.EHOSTUNREACH, "not a pod of this runtime")
	_, err = h.rt.DialContext(h.ctx, "udp", netip.AddrPortFrom(ip, 6379).String())
	assert.Error(t, err, "UDP")
	_, ok := h.rt.HostAddr(netip.AddrPortFrom(ip, 6379))
	assert.False(t, ok, "redis has no real listener")
}

func TestServersCloseWhenTheRuntimeStops(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	sb := h.sandbox("web")
	id := h.startIn(sb, cri.ContainerConfig{Image: "nginx"})
	sleeper := h.startIn(sb, cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "sleeper"}, Image: "busybox", Command: []string{"sleep", "60"}})
	host, ok := h.rt.HostAddr(netip.AddrPortFrom(h.podIP(sb), 80))
	require.True(t, ok)

	// A second runtime, to stop it here rather than in Cleanup.
	rt, err := simulated.New(simulated.Options{Clock: h.clock})
	require.NoError(t, err)
	running := clustertest.Start(t, rt)
	sb2, err := rt.RunPodSandbox(h.ctx, cri.PodSandboxConfig{Metadata: cri.PodSandboxMetadata{Name: "p", Namespace: "default"}})
	require.NoError(t, err)
	_, err = rt.PullImage(h.ctx, "nginx")
	require.NoError(t, err)
	c2, err := rt.CreateContainer(h.ctx, sb2, cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "web"}, Image: "nginx"})
	require.NoError(t, err)
	require.NoError(t, rt.StartContainer(h.ctx, c2))
	st, err := rt.PodSandboxStatus(h.ctx, sb2)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(st.Network.IP, "10.88."), "the default network is containerd's: %s", st.Network.IP)

	running.Stop()
	cst, err := rt.ContainerStatus(h.ctx, c2)
	require.NoError(t, err)
	assert.Equal(t, int32(137), cst.ExitCode, "killed by the shutdown")
	assert.ErrorIs(t, rt.StartContainer(h.ctx, c2), simulated.ErrStopped)
	_, err = rt.RunPodSandbox(h.ctx, cri.PodSandboxConfig{Metadata: cri.PodSandboxMetadata{Name: "q", Namespace: "default"}})
	assert.ErrorIs(t, err, simulated.ErrStopped)

	// The first runtime is untouched.
	assert.Equal(t, cri.ContainerRunning, h.status(id).State)
	assert.Equal(t, cri.ContainerRunning, h.status(sleeper).State)
	conn, err := net.Dial("tcp", host.String())
	require.NoError(t, err)
	conn.Close()
}
