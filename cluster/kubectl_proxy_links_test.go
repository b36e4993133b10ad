package cluster_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// sitePage is what the site image serves at every path but /old: links
// to its own paths, to its own address, elsewhere and relative.
func sitePage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/old" {
		http.Redirect(w, r, "/new", http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	_, _ = fmt.Fprintf(w, `<a href="/about">about</a><img src="http://%s/logo.png"><a href="https://example.org/">out</a><a href="next.html">next</a>`, r.Host)
}

// TestKubectlProxyRewritesLinks: a pod's page read through `kubectl
// proxy` links to the pod's paths through the proxy, as kube-apiserver
// rewrites them, and its redirects stay there too.
func TestKubectlProxyRewritesLinks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	site := func(context.Context, *simulated.ContainerContext) (http.Handler, error) {
		return http.HandlerFunc(sitePage), nil
	}
	c := startCluster(t, nodes(1), func(o *cluster.Options) {
		o.Programs = map[string]simulated.Program{"example.com/site:v1": site}
	})
	k := newKubectl(t, c)
	k.Run("run", "site", "--image=example.com/site:v1", "--port=8080")
	k.Run("wait", "--for=condition=Ready", "pod/site", "--timeout=60s")
	addr := k.startBackground(regexp.MustCompile(`Starting to serve on (127\.0\.0\.1:\d+)`), nil, "proxy", "--port=0")
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	t.Cleanup(noFollow.CloseIdleConnections)
	get := func(path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+addr+path, nil)
		require.NoError(t, err)
		resp, err := noFollow.Do(req)
		require.NoError(t, err, "GET %s", path)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err, "GET %s", path)
		return resp, string(body)
	}

	prefix := "/api/v1/namespaces/default/pods/site/proxy"
	resp, body := get(prefix + "/")
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s/: %s", prefix, body)
	assert.Equal(t, `<a href="`+prefix+`/about">about</a><img src="`+prefix+`/logo.png">`+
		`<a href="https://example.org/">out</a><a href="next.html">next</a>`, body)

	resp, _ = get(prefix + "/old")
	assert.Equal(t, http.StatusFound, resp.StatusCode, "GET %s/old", prefix)
	assert.Equal(t, prefix+"/new", resp.Header.Get("Location"), "GET %s/old", prefix)

	resp, _ = get(prefix)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode, "GET %s", prefix)
	assert.Equal(t, prefix+"/", resp.Header.Get("Location"), "GET %s", prefix)
}
