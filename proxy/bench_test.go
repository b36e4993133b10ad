package proxy_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/proxy"
)

// BenchmarkProxy compares HTTP requests through the proxy's ClusterIP
// with the same requests straight to the pod's server, in one run, each
// on a new connection as wget opens one. Requests per second and
// microseconds per request are reported; the latency the proxy adds is
// the difference.
func BenchmarkProxy(b *testing.B) {
	e := newEnv(b, clock.Real)
	backend := startBackend(b, "web-0", "10.244.110.1", 8080)
	svc := e.createService(b, "bench", corev1.ServiceSpec{Selector: web, Ports: httpPort(80)})
	e.writeSlice(b, "bench", "http", 8080, endpoint{ip: backend.addr.Addr().String(), ready: true})
	e.waitPort(b, "default/bench", "http", "one endpoint", func(st proxy.PortStatus) bool { return st.Endpoints == 1 && len(st.Listening) == 1 })

	targets := []struct{ name, url string }{
		{"direct", fmt.Sprintf("http://%s/", backend.addr)},
		{"proxied", fmt.Sprintf("http://%s:80/", svc.Spec.ClusterIP)},
	}
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			d := &proxy.Dialer{}
			tr := &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}
			defer tr.CloseIdleConnections()
			hc := &http.Client{Transport: tr}
			for b.Loop() {
				resp, err := hc.Get(tg.url)
				require.NoError(b, err)
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/req")
		})
	}
}
