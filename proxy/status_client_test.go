package proxy_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/proxy"
	"github.com/minicp/minicp/wait/waittest"
)

// roundTripFunc is an http.RoundTripper of one function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestStatusClientset: the proxy only reads through Clientset; the load
// balancer status goes out through StatusClientset, which a cluster
// gives another identity.
func TestStatusClientset(t *testing.T) {
	api := apiservertest.New(t)
	var mu sync.Mutex
	writes := map[string][]string{} // "METHOD path" of each client's writes
	newClientset := func(name string) *client.Clientset {
		c, err := client.New(client.Config{
			Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()), BearerToken: apiservertest.AdminToken,
			WrapTransport: func(next http.RoundTripper) http.RoundTripper {
				return roundTripFunc(func(r *http.Request) (*http.Response, error) {
					if r.Method != http.MethodGet {
						mu.Lock()
						writes[name] = append(writes[name], r.Method+" "+r.URL.Path)
						mu.Unlock()
					}
					return next.RoundTrip(r)
				})
			},
		})
		require.NoError(t, err)
		cs, err := client.NewClientset(c)
		require.NoError(t, err)
		return cs
	}
	p, err := proxy.New(proxy.Options{Clientset: newClientset("proxy"), StatusClientset: newClientset("status"), NodeName: "node-1"})
	require.NoError(t, err)
	clustertest.Start(t, p)

	cs := clustertest.InMemoryClientset(t, api)
	_, err = cs.Services("default").Create(t.Context(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "lb"},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Selector: web, Ports: httpPort(8083)}}, client.WriteOptions{})
	require.NoError(t, err)
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for {
		changed := p.Changed()
		got, err := cs.Services("default").Get(ctx, "lb", client.GetOptions{})
		require.NoError(t, err)
		if len(got.Status.LoadBalancer.Ingress) == 1 {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			require.FailNow(t, "no ingress in the status")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, writes["proxy"], "the proxy's own client only reads")
	// A sync that ran before the informer saw the first write may write
	// again (after a conflict): every write is the status's, though.
	require.NotEmpty(t, writes["status"], "the status client wrote the status")
	for _, w := range writes["status"] {
		assert.Equal(t, "PUT /api/v1/namespaces/default/services/lb/status", w, "the status client's writes")
	}
}
