package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/proxy"
	"github.com/minicp/minicp/wait/waittest"
)

// env is an API server and a running Proxier.
type env struct {
	cs *client.Clientset
	p  *proxy.Proxier
}

// newEnv starts an API server and a Proxier on clk for node-1, stopped
// (and checked to have stopped) when t ends.
func newEnv(t testing.TB, clk clock.Clock) *env {
	t.Helper()
	cs := clustertest.InMemoryClientset(t, apiservertest.New(t))
	p, err := proxy.New(proxy.Options{Clientset: cs, NodeName: "node-1", Clock: clk})
	require.NoError(t, err)
	clustertest.Start(t, p)
	select {
	case <-p.Ready():
	case <-t.Context().Done():
	}
	return &env{cs: cs, p: p}
}

// waitPort waits until the Proxier's status of Service port svc/port
// satisfies cond, and returns it.
func (e *env) waitPort(t testing.TB, svc, port string, what string, cond func(proxy.PortStatus) bool) proxy.PortStatus {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for {
		changed := e.p.Changed()
		for _, st := range e.p.Status() {
			if st.Service == svc && st.Port == port && cond(st) {
				return st
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			require.FailNow(t, "timed out", "waiting for %s/%s: %s; status %+v", svc, port, what, e.p.Status())
		}
	}
}

// backendServer is a pod's HTTP server on its mapped pod IP, answering
// with its name.
type backendServer struct {
	name string
	addr netip.AddrPort // the pod IP and port, as the API shows them
}

// startBackend serves name on the loopback address of podIP:port until t
// ends. Each response closes its connection, so every request is a new
// connection through the proxy.
func startBackend(t testing.TB, name, podIP string, port uint16) backendServer {
	t.Helper()
	addr := netip.AddrPortFrom(netip.MustParseAddr(podIP), port)
	ln, err := net.Listen("tcp", proxy.LoopbackAddrPort(addr).String())
	require.NoError(t, err, "listen for %s", name)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		fmt.Fprint(w, name)
	}), ReadHeaderTimeout: waittest.Timeout}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return backendServer{name: name, addr: addr}
}

// startEcho serves a line echo on the loopback address of podIP:port
// until t ends: what a long-lived connection looks like.
func startEcho(t *testing.T, podIP string, port uint16) {
	t.Helper()
	ln, err := net.Listen("tcp", proxy.LoopbackAddrPort(netip.AddrPortFrom(netip.MustParseAddr(podIP), port)).String())
	require.NoError(t, err)
	done := make(chan struct{})
	conns := make(chan net.Conn, 16)
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c
			go func() { _, _ = io.Copy(c, c) }()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		close(conns)
		for c := range conns {
			_ = c.Close()
		}
	})
}

// get GETs url over a new connection dialled through dialer, and returns
// the body.
func get(t *testing.T, url string) (string, error) {
	t.Helper()
	d := &proxy.Dialer{}
	hc := &http.Client{Timeout: waittest.Timeout, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	resp, err := hc.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// createService creates a Service of spec in default and returns it as
// stored (with its ClusterIP and node ports).
func (e *env) createService(t testing.TB, name string, spec corev1.ServiceSpec) *corev1.Service {
	t.Helper()
	svc, err := e.cs.Services("default").Create(t.Context(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}, client.WriteOptions{})
	require.NoError(t, err, "create service %s", name)
	return svc
}

// endpoint is one endpoint of a hand-written slice.
type endpoint struct {
	ip    string
	ready bool
	node  string
}

// writeSlice creates or replaces the slice of Service svc holding eps
// on port (named portName).
func (e *env) writeSlice(t testing.TB, svc, portName string, port int32, eps ...endpoint) {
	t.Helper()
	s := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: svc + "-test", Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: new(portName), Port: new(port)}},
	}
	for _, ep := range eps {
		dep := discoveryv1.Endpoint{Addresses: []string{ep.ip}, Conditions: discoveryv1.EndpointConditions{Ready: new(ep.ready)}}
		if ep.node != "" {
			dep.NodeName = new(ep.node)
		}
		s.Endpoints = append(s.Endpoints, dep)
	}
	slices := e.cs.EndpointSlices("default")
	old, err := slices.Get(t.Context(), s.Name, client.GetOptions{})
	if err == nil {
		s.ResourceVersion = old.ResourceVersion
		_, err = slices.Update(t.Context(), s, client.WriteOptions{})
	} else {
		_, err = slices.Create(t.Context(), s, client.WriteOptions{})
	}
	require.NoError(t, err, "write slice of %s", svc)
}

// readLine sends line on c and reads the echo.
func readLine(t *testing.T, c net.Conn, r *bufio.Reader, line string) string {
	t.Helper()
	_, err := io.WriteString(c, line+"\n")
	require.NoError(t, err)
	got, err := r.ReadString('\n')
	require.NoError(t, err, "echo of %q", line)
	return strings.TrimSuffix(got, "\n")
}

// deleteNow is DeleteOptions with no grace period.
func deleteNow() metav1.DeleteOptions { return metav1.DeleteOptions{GracePeriodSeconds: new(int64(0))} }
