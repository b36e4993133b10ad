package apiserver_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
)

// TestResourceProxyRewritesLinks: through pods/proxy and services/proxy,
// a page's links to its own server and its redirects stay under the
// proxy path, and .../proxy redirects to .../proxy/, as kube-apiserver
// answers.
func TestResourceProxyRewritesLinks(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, `<a href="/about">about</a> <img src="http://10.244.0.5:8080/logo.png"> `+
			`<a href="https://example.org/">out</a> <a href="next.html">next</a> <p>uri=`+r.Header.Get("X-Forwarded-Uri")+`</p>`)
	}))
	t.Cleanup(backend.Close)
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, backend.Listener.Addr().String())
	}
	s := newTestServer(t, func(o *apiserver.Options) { o.ProxyDialer = dial })
	s.createPod("web", map[string]string{"app": "web"})
	s.setPodIP("web", "10.244.0.5")
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/services",
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}`)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/endpoints",
		`{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"web"},"subsets":[{"addresses":[{"ip":"10.244.0.5"}],"ports":[{"port":8080}]}]}`)
	noFollow := &http.Client{Transport: s.client.Transport, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	get := func(path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
		resp, err := noFollow.Do(req)
		require.NoError(t, err, "GET %s", path)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err, "GET %s", path)
		return resp, string(body)
	}

	for _, prefix := range []string{"/api/v1/namespaces/default/pods/web:8080/proxy", "/api/v1/namespaces/default/services/web/proxy"} {
		resp, body := get(prefix + "/docs/")
		require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s/docs/: %s", prefix, body)
		assert.Equal(t, `<a href="`+prefix+`/about">about</a> <img src="`+prefix+`/logo.png"> `+
			`<a href="https://example.org/">out</a> <a href="next.html">next</a> <p>uri=`+prefix+`/docs/</p>`, body, "GET %s/docs/", prefix)

		resp, _ = get(prefix + "/old")
		assert.Equal(t, http.StatusFound, resp.StatusCode, "GET %s/old", prefix)
		assert.Equal(t, prefix+"/new", resp.Header.Get("Location"), "GET %s/old", prefix)

		resp, _ = get(prefix + "?x=1")
		assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode, "GET %s", prefix)
		assert.Equal(t, prefix+"/?x=1", resp.Header.Get("Location"), "GET %s", prefix)
	}
}
