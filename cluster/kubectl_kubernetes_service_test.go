package cluster_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/proxy"
)

// TestKubectlKubernetesServiceSlice: the kubernetes Service has its
// EndpointSlice, which `kubectl get endpointslices` lists with the API
// server's address, and the proxy serves https://kubernetes.default.svc
// (10.96.0.1:443) with a certificate a pod verifies against the CA.
func TestKubectlKubernetesServiceSlice(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, serviceNetwork)
	k := newKubectl(t, c)
	u, err := url.Parse(c.URL())
	require.NoError(t, err)

	slices := k.Run("get", "endpointslices", "kubernetes", "-o", "jsonpath={.metadata.labels} {.endpoints[0].addresses[0]}:{.ports[0].port} {.endpoints[0].conditions.ready}")
	assert.Equal(t, `{"kubernetes.io/service-name":"kubernetes"} `+u.Host+" true", slices)

	waitKubernetesListener(t, c.ServiceProxy())
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(c.CACertificate()))
	var d proxy.Dialer
	tr := &http.Transport{DialContext: d.DialContext, TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "kubernetes.default.svc"}}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("https://10.96.0.1:443/version")
	require.NoError(t, err, "GET /version through the kubernetes Service")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	assert.Contains(t, string(body), "gitVersion")
}

// waitKubernetesListener waits until the proxy listens on the kubernetes
// Service's ClusterIP. Its loopback address is the same for every
// cluster on the host: while another one holds it, the proxy tries again
// at each resync, and the test is skipped if that never succeeds.
func waitKubernetesListener(t *testing.T, p *proxy.Proxier) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 40*time.Second)
	defer cancel()
	for {
		changed := p.Changed()
		for _, st := range p.Status() {
			if st.Service == "default/kubernetes" && len(st.Listening) > 0 {
				return
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Skip("another cluster on this host holds the kubernetes Service's address (127.96.0.1:443)")
		}
	}
}
