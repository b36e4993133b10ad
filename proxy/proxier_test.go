package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/proxy"
	"github.com/minicp/minicp/wait/waittest"
)

var web = map[string]string{"app": "web"}

func httpPort(port int32) []corev1.ServicePort {
	return []corev1.ServicePort{{Name: "http", Port: port, TargetPort: intstr.FromInt32(8080)}}
}

// TestRoundRobinOverThreePods: six new connections to the ClusterIP go
// to the three ready pods in turn, twice each; a pod turning unready gets
// no new connection, and neither does one whose endpoint goes.
func TestRoundRobinOverThreePods(t *testing.T) {
	e := newEnv(t, clock.Real)
	pods := []backendServer{
		startBackend(t, "web-0", "10.244.100.1", 8080),
		startBackend(t, "web-1", "10.244.100.2", 8080),
		startBackend(t, "web-2", "10.244.100.3", 8080),
	}
	svc := e.createService(t, "web", corev1.ServiceSpec{Selector: web, Ports: httpPort(80)})
	url := fmt.Sprintf("http://%s:80/", svc.Spec.ClusterIP)

	tests := []struct {
		name  string
		ready []bool
		want  []string
	}{
		{name: "three ready", ready: []bool{true, true, true}, want: []string{"web-0", "web-1", "web-2", "web-0", "web-1", "web-2"}},
		{name: "web-1 unready", ready: []bool{true, false, true}, want: []string{"web-0", "web-2", "web-0", "web-2"}},
		{name: "only web-2", ready: []bool{false, false, true}, want: []string{"web-2", "web-2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var eps []endpoint
			readyCount := 0
			for i, p := range pods {
				eps = append(eps, endpoint{ip: p.addr.Addr().String(), ready: tc.ready[i], node: "node-1"})
				if tc.ready[i] {
					readyCount++
				}
			}
			e.writeSlice(t, "web", "http", 8080, eps...)
			st := e.waitPort(t, "default/web", "http", "ready endpoints", func(st proxy.PortStatus) bool {
				return st.Endpoints == readyCount && len(st.Listening) == 1
			})
			assert.Equal(t, netip.MustParseAddrPort(svc.Spec.ClusterIP+":80"), st.Listening[0], "listens on the ClusterIP as the API shows it")
			// The first answer may come from any pod: where round robin
			// stands depends on the previous case.
			first, err := get(t, url)
			require.NoError(t, err)
			start := -1
			for i, w := range tc.want {
				if w == first {
					start = i
					break
				}
			}
			require.GreaterOrEqual(t, start, 0, "first answer %q is a ready pod of %v", first, tc.want)
			got := []string{first}
			for range len(tc.want) - 1 {
				body, err := get(t, url)
				require.NoError(t, err)
				got = append(got, body)
			}
			want := append(append([]string{}, tc.want[start:]...), tc.want[:start]...)
			assert.Equal(t, want, got, "pods in turn")
		})
	}
}

// TestNoReadyEndpointRefuses: a Service whose endpoints are all unready
// (or which has none) accepts and closes new connections at once.
func TestNoReadyEndpointRefuses(t *testing.T) {
	e := newEnv(t, clock.Real)
	p := startBackend(t, "web-0", "10.244.101.1", 8080)
	svc := e.createService(t, "web", corev1.ServiceSpec{Selector: web, Ports: httpPort(80)})
	e.writeSlice(t, "web", "http", 8080, endpoint{ip: p.addr.Addr().String(), ready: false})
	e.waitPort(t, "default/web", "http", "listening, no endpoints", func(st proxy.PortStatus) bool {
		return len(st.Listening) == 1 && st.Endpoints == 0
	})
	c, err := (&proxy.Dialer{}).DialContext(t.Context(), "tcp", svc.Spec.ClusterIP+":80")
	require.NoError(t, err, "the listener accepts")
	defer c.Close()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(waittest.Timeout)))
	n, err := c.Read(make([]byte, 1))
	assert.Equal(t, 0, n)
	assert.ErrorIs(t, err, io.EOF, "the proxy closes the connection")
}

// TestConnectionInFlightSurvivesEndpointChange: a connection keeps its
// backend while the endpoint turns unready and when another one joins;
// new connections follow the change.
func TestConnectionInFlightSurvivesEndpointChange(t *testing.T) {
	e := newEnv(t, clock.Real)
	startEcho(t, "10.244.102.1", 7000)
	startEcho(t, "10.244.102.2", 7000)
	svc := e.createService(t, "echo", corev1.ServiceSpec{Selector: web,
		Ports: []corev1.ServicePort{{Name: "echo", Port: 7000, TargetPort: intstr.FromInt32(7000)}}})
	e.writeSlice(t, "echo", "echo", 7000, endpoint{ip: "10.244.102.1", ready: true})
	e.waitPort(t, "default/echo", "echo", "one endpoint", func(st proxy.PortStatus) bool { return st.Endpoints == 1 && len(st.Listening) == 1 })

	c, err := (&proxy.Dialer{}).DialContext(t.Context(), "tcp", svc.Spec.ClusterIP+":7000")
	require.NoError(t, err)
	defer c.Close()
	r := bufio.NewReader(c)
	assert.Equal(t, "before", readLine(t, c, r, "before"))

	e.writeSlice(t, "echo", "echo", 7000, endpoint{ip: "10.244.102.1", ready: false}, endpoint{ip: "10.244.102.2", ready: true})
	e.waitPort(t, "default/echo", "echo", "the other endpoint", func(st proxy.PortStatus) bool { return st.Endpoints == 1 })
	assert.Equal(t, "after", readLine(t, c, r, "after"), "the connection in flight still works")

	// Deleting the Service closes its listener, still not the connection.
	require.NoError(t, e.cs.Services("default").Delete(t.Context(), "echo", deleteNow()))
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for len(e.p.Status()) != 0 {
		select {
		case <-e.p.Changed():
		case <-ctx.Done():
			require.FailNow(t, "the Service's port stays", "%+v", e.p.Status())
		}
	}
	assert.Equal(t, "gone", readLine(t, c, r, "gone"), "the connection outlives its Service")
}

// TestNodePortAndLoadBalancer: a LoadBalancer Service gets an ingress IP
// from the pool in its status, and answers on it, on its node port and on
// its ClusterIP.
func TestNodePortAndLoadBalancer(t *testing.T) {
	e := newEnv(t, clock.Real)
	startBackend(t, "web-0", "10.244.103.1", 8080)
	svc := e.createService(t, "lb", corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Selector: web, Ports: httpPort(8081)})
	require.NotZero(t, svc.Spec.Ports[0].NodePort, "a node port is allocated")
	e.writeSlice(t, "lb", "http", 8080, endpoint{ip: "10.244.103.1", ready: true, node: "node-1"})
	e.waitPort(t, "default/lb", "http", "three listeners", func(st proxy.PortStatus) bool { return len(st.Listening) == 3 && st.Endpoints == 1 })

	var ingress string
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for ingress == "" {
		changed := e.p.Changed()
		got, err := e.cs.Services("default").Get(ctx, "lb", client.GetOptions{})
		require.NoError(t, err)
		if in := got.Status.LoadBalancer.Ingress; len(in) == 1 {
			ingress = in[0].IP
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			require.FailNow(t, "no ingress in the status")
		}
	}
	assert.True(t, proxy.DefaultLoadBalancerPool.Contains(netip.MustParseAddr(ingress)), "ingress %s from the pool", ingress)

	tests := []struct{ name, url string }{
		{"ClusterIP", fmt.Sprintf("http://%s:8081/", svc.Spec.ClusterIP)},
		{"NodePort", fmt.Sprintf("http://127.0.0.1:%d/", svc.Spec.Ports[0].NodePort)},
		{"LoadBalancer", fmt.Sprintf("http://%s:8081/", ingress)},
	}
	for _, tc := range tests {
		body, err := get(t, tc.url)
		require.NoError(t, err, "%s %s", tc.name, tc.url)
		assert.Equal(t, "web-0", body, tc.name)
	}
}

// TestExternalTrafficPolicyLocal: the node port forwards only to
// endpoints on the proxy's node; the ClusterIP to all of them.
func TestExternalTrafficPolicyLocal(t *testing.T) {
	e := newEnv(t, clock.Real)
	startBackend(t, "here", "10.244.104.1", 8080)
	startBackend(t, "there", "10.244.104.2", 8080)
	svc := e.createService(t, "np", corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, Selector: web, Ports: httpPort(8082),
		ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyLocal})
	e.writeSlice(t, "np", "http", 8080, endpoint{ip: "10.244.104.1", ready: true, node: "node-1"},
		endpoint{ip: "10.244.104.2", ready: true, node: "node-2"})
	e.waitPort(t, "default/np", "http", "local endpoints", func(st proxy.PortStatus) bool {
		return st.Endpoints == 2 && st.ExternalEndpoints == 1 && len(st.Listening) == 2
	})
	for range 4 {
		body, err := get(t, fmt.Sprintf("http://127.0.0.1:%d/", svc.Spec.Ports[0].NodePort))
		require.NoError(t, err)
		assert.Equal(t, "here", body, "the node port stays on node-1")
	}
}

// TestClientIPAffinity: with sessionAffinity ClientIP, a client keeps its
// pod while it comes back within the timeout, and is balanced again once
// the timeout has passed on the clock.
func TestClientIPAffinity(t *testing.T) {
	clk := clocktest.NewFake(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	e := newEnv(t, clk)
	startBackend(t, "web-0", "10.244.105.1", 8080)
	startBackend(t, "web-1", "10.244.105.2", 8080)
	svc := e.createService(t, "sticky", corev1.ServiceSpec{Selector: web, Ports: httpPort(80),
		SessionAffinity:       corev1.ServiceAffinityClientIP,
		SessionAffinityConfig: &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: new(int32(60))}}})
	e.writeSlice(t, "sticky", "http", 8080, endpoint{ip: "10.244.105.1", ready: true}, endpoint{ip: "10.244.105.2", ready: true})
	e.waitPort(t, "default/sticky", "http", "two endpoints", func(st proxy.PortStatus) bool { return st.Endpoints == 2 && len(st.Listening) == 1 })
	url := fmt.Sprintf("http://%s:80/", svc.Spec.ClusterIP)

	first, err := get(t, url)
	require.NoError(t, err)
	for i := range 4 {
		clk.Step(30 * time.Second) // within the timeout of the last visit
		body, err := get(t, url)
		require.NoError(t, err)
		assert.Equal(t, first, body, "request %d sticks", i)
	}
	clk.Step(61 * time.Second)
	body, err := get(t, url)
	require.NoError(t, err)
	assert.NotEqual(t, first, body, "past the timeout, round robin moves on")
}

// TestDialerMapsClusterAddresses: the Dialer reaches a cluster address at
// its loopback twin; other addresses are left alone.
func TestDialerMapsClusterAddresses(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.96.0.10", "127.96.0.10"},
		{"10.244.3.7", "127.244.3.7"},
		{"127.0.0.1", "127.0.0.1"},
		{"192.168.1.1", "192.168.1.1"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, proxy.Loopback(netip.MustParseAddr(tc.in)).String(), "Loopback(%s)", tc.in)
	}
	ln, err := net.Listen("tcp", "127.244.106.1:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	c, err := (&proxy.Dialer{}).DialContext(t.Context(), "tcp", fmt.Sprintf("10.244.106.1:%d", port))
	require.NoError(t, err)
	_ = c.Close()
}
