package webview_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/webview"
)

// view is a web view served for a test, over a test cluster.
type view struct {
	c       *clustertest.Cluster
	tr      *tracing.Tracing
	url     string
	running *clustertest.Running
}

// startView starts a cluster with nodes nodes (traced unless traced is
// false) and a web view of it on a loopback port, both stopped when the
// test ends, and waits until the web view's informers have synced.
func startView(t *testing.T, nodes int, traced bool, opts ...clustertest.Option) *view {
	t.Helper()
	v := &view{}
	opts = append([]clustertest.Option{clustertest.WithNodes(nodes)}, opts...)
	if traced {
		v.tr = tracing.New(tracing.Options{})
		t.Cleanup(func() { require.NoError(t, v.tr.Shutdown(context.WithoutCancel(t.Context()))) })
		opts = append(opts, clustertest.WithTracing(v.tr))
	}
	v.c = clustertest.New(t, opts...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s, err := webview.New(webview.Options{Client: v.c.Clientset().Client(), Tracing: v.tr, Listener: ln})
	require.NoError(t, err, "webview.New")
	v.running = clustertest.Start(t, s)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, s.WaitForSync(ctx), "the web view's informers sync")
	v.url = "http://" + ln.Addr().String()
	return v
}

// createPod creates a pod running nginx in default and waits until it
// runs with an IP.
func (v *view) createPod(t *testing.T, name string) *corev1.Pod {
	t.Helper()
	pods := v.c.Clientset().Pods("default")
	_, err := pods.Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
	return clustertest.WaitFor(t, pods, name, "running with an IP", func(p *corev1.Pod, found bool) bool {
		return found && p.Status.Phase == corev1.PodRunning && p.Status.PodIP != ""
	})
}

// get GETs path and decodes the JSON answer into out; it returns the
// status code.
func (v *view) get(t *testing.T, path string, out any) int {
	t.Helper()
	return v.do(t, http.MethodGet, path, out)
}

func (v *view) do(t *testing.T, method, path string, out any) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, v.url+path, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "%s %s", method, path)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if out != nil {
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"), "%s %s: %s", method, path, body)
		require.NoError(t, json.Unmarshal(body, out), "%s %s: %s", method, path, body)
	}
	return resp.StatusCode
}

// events opens the event stream; its channel gets a value per change
// event and is closed when the stream ends.
func (v *view) events(t *testing.T) <-chan struct{} {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.url+"/api/events", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "GET /api/events")
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	ch := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: change") {
				select {
				case ch <- struct{}{}:
				default: // one pending change says enough
				}
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		<-done
	})
	return ch
}

// waitView GETs path into out whenever the event stream says something
// changed, until cond holds: the web view's informers and spans catch up
// with the cluster a moment after a write.
func waitView[T any](t *testing.T, v *view, path, what string, cond func(T) bool) T {
	t.Helper()
	changes := v.events(t)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		var got T
		v.get(t, path, &got)
		if cond(got) {
			return got
		}
		select {
		case _, ok := <-changes:
			require.True(t, ok, "the event stream ended while waiting for %s", what)
		case <-ctx.Done():
			t.Fatalf("%s: not within %v; last: %+v", what, clustertest.WaitTimeout, got)
		}
	}
}
