package cluster_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startBackground starts a long-running kubectl (port-forward, proxy)
// and returns the first submatch of re in its output, the address it
// serves on. The command stops when the test ends.
func (k *kubectl) startBackground(re *regexp.Regexp, env []string, args ...string) string {
	k.t.Helper()
	ctx, cancel := context.WithCancel(k.t.Context())
	cmd := k.Command(ctx, args...)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	require.NoError(k.t, err)
	require.NoError(k.t, cmd.Start(), "kubectl %s", strings.Join(args, " "))
	var wg sync.WaitGroup
	k.t.Cleanup(func() {
		cancel()
		_ = cmd.Wait() // which closes out, ending the copy below
		wg.Wait()
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			// Keep reading, so that kubectl never blocks on its output.
			wg.Go(func() { _, _ = io.Copy(io.Discard, out) })
			return m[1]
		}
	}
	k.t.Fatalf("kubectl %s ended before printing its address", strings.Join(args, " "))
	return ""
}

// httpGet returns the body of a GET of url.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "GET %s", url)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

var forwardingRE = regexp.MustCompile(`Forwarding from (127\.0\.0\.1:\d+) ->`)

// TestKubectlPortForward: `kubectl port-forward` to a pod and to a
// Service reaches nginx's real server, over both protocols.
func TestKubectlPortForward(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("create", "deployment", "web", "--image=nginx", "--port=80")
	k.Run("expose", "deployment", "web", "--port=8080", "--target-port=80")
	k.Run("rollout", "status", "deployment/web", "--timeout=60s")

	for _, p := range []struct {
		name string
		env  []string
	}{
		{"websocket", nil},
		{"spdy", []string{"KUBECTL_PORT_FORWARD_WEBSOCKETS=false"}},
	} {
		t.Run(p.name, func(t *testing.T) {
			// Local port 0 asks for a free one, which kubectl prints.
			for _, target := range []string{"deployment/web", "svc/web"} {
				port := "0:80"
				if target == "svc/web" {
					port = "0:8080"
				}
				addr := k.startBackground(forwardingRE, p.env, "port-forward", target, port)
				for range 2 {
					code, body := httpGet(t, "http://"+addr+"/")
					assert.Equal(t, http.StatusOK, code, "%s: %s", target, body)
					assert.Contains(t, body, "<title>Welcome to nginx!</title>", "%s", target)
				}
				code, _ := httpGet(t, "http://"+addr+"/missing")
				assert.Equal(t, http.StatusNotFound, code, "nginx's 404, through %s", target)
			}
		})
	}
}

// TestKubectlProxy: `kubectl proxy` serves a Service's and a pod's
// server under their proxy subresources, and `kubectl get --raw` reaches
// them too.
func TestKubectlProxy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("create", "deployment", "web", "--image=nginx", "--port=80")
	k.Run("expose", "deployment", "web", "--port=80")
	k.Run("rollout", "status", "deployment/web", "--timeout=60s")
	k.Run("wait", "--for=create", "endpoints/web", "--timeout=60s")
	k.Run("wait", "--for=jsonpath={.subsets[0].addresses[0].ip}", "endpoints/web", "--timeout=60s")
	pod := k.Run("get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].metadata.name}")

	addr := k.startBackground(regexp.MustCompile(`Starting to serve on (127\.0\.0\.1:\d+)`), nil, "proxy", "--port=0")
	for _, path := range []string{
		"/api/v1/namespaces/default/services/web/proxy/",
		"/api/v1/namespaces/default/services/http:web:80/proxy/",
		"/api/v1/namespaces/default/pods/" + pod + "/proxy/",
		"/api/v1/namespaces/default/pods/" + pod + ":80/proxy/",
	} {
		code, body := httpGet(t, "http://"+addr+path)
		assert.Equal(t, http.StatusOK, code, "%s: %s", path, body)
		assert.Contains(t, body, "<title>Welcome to nginx!</title>", "%s", path)
	}
	code, body := httpGet(t, "http://"+addr+"/api/v1/namespaces/default/services/web/proxy/missing")
	assert.Equal(t, http.StatusNotFound, code, "nginx's own 404: %s", body)

	raw := k.Run("get", "--raw", "/api/v1/namespaces/default/services/web:80/proxy/")
	assert.Contains(t, raw, "Welcome to nginx!")
	out := k.Fail("get", "--raw", "/api/v1/namespaces/default/services/nope/proxy/")
	assert.Contains(t, out, `services "nope" not found`)
	out = k.Fail("get", "--raw", "/api/v1/namespaces/default/services/web:9999/proxy/")
	assert.Contains(t, out, `no service port "9999" found for service "web"`)
}
