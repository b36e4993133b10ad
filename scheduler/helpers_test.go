package scheduler_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/scheduler"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/storage/storagetest"
)

const adminToken = "admin-token"

// waitTimeout bounds every wait for a watch event or for the scheduler to
// settle. Both take milliseconds; 30s is for a loaded CI machine under
// -race, and turns a lost event into a failure instead of a hang.
const waitTimeout = 30 * time.Second

// rl is a resource list in quantity strings.
type rl = map[corev1.ResourceName]string

// newFakeClock returns a fake clock at a fixed, arbitrary time.
func newFakeClock() *clocktest.Fake {
	return clocktest.NewFake(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
}

// newAPIServer starts an API server on the shared etcd under a prefix of
// its own, not listening: it is reached through the in-memory transport.
// It stops when the test ends.
func newAPIServer(t testing.TB) *apiserver.Server {
	t.Helper()
	api, stop := startAPIServer(t)
	t.Cleanup(stop)
	return api
}

// startAPIServer is newAPIServer for callers that stop it themselves.
func startAPIServer(t testing.TB) (api *apiserver.Server, stop func()) {
	t.Helper()
	api, err := apiserver.New(apiserver.Options{
		Etcd:          storagetest.Client(t),
		StoragePrefix: storagetest.Prefix(t),
		Authenticator: authn.NewTokenFile([]authn.TokenUser{{Token: adminToken, User: request.User{
			Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}}}),
	})
	require.NoError(t, err, "apiserver.New")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.Start(ctx) }()
	stop = func() {
		cancel()
		<-done
	}
	if err := api.WaitReady(t.Context()); err != nil {
		stop()
		t.Fatalf("watch caches sync: %v", err)
	}
	if err := api.EnsureSystemNamespaces(t.Context()); err != nil {
		stop()
		t.Fatalf("EnsureSystemNamespaces: %v", err)
	}
	return api, stop
}

// newClientset returns a clientset reaching api in memory, through wrap's
// RoundTripper when wrap is given.
func newClientset(t testing.TB, api *apiserver.Server, wrap ...func(http.RoundTripper) http.RoundTripper) *client.Clientset {
	t.Helper()
	rt := client.NewInMemoryTransport(api.Handler())
	for _, w := range wrap {
		rt = w(rt)
	}
	c, err := client.New(client.Config{Host: "http://in-memory", Transport: rt, BearerToken: adminToken})
	require.NoError(t, err, "client.New")
	cs, err := client.NewClientset(c)
	require.NoError(t, err, "NewClientset")
	return cs
}

// startScheduler builds a scheduler with opts (Clientset set to cs), runs
// it until the test ends, and waits until it is Ready. Cleanup stops it
// and checks that Start returned nil.
func startScheduler(t testing.TB, cs *client.Clientset, opts scheduler.Options) *scheduler.Scheduler {
	t.Helper()
	opts.Clientset = cs
	s, err := scheduler.New(opts)
	require.NoError(t, err, "scheduler.New")
	ctx, cancel := context.WithCancel(context.Background())
	errCh := make(chan error, 1)
	go func() { errCh <- s.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-errCh, "Start returns nil once stopped")
	})
	ready, cancelWait := context.WithTimeout(t.Context(), waitTimeout)
	defer cancelWait()
	select {
	case <-s.Ready():
	case err := <-errCh:
		t.Fatalf("scheduler stopped before it was ready: %v", err)
	case <-ready.Done():
		t.Fatalf("scheduler not ready within %v", waitTimeout)
	}
	return s
}

// receive waits for a value from ch, failing the test after waitTimeout.
func receive[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatalf("no %s within %v", what, waitTimeout)
		var zero T
		return zero
	}
}

// waitIdle waits for the scheduler to settle, failing the test after
// waitTimeout.
func waitIdle(t testing.TB, s *scheduler.Scheduler) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	require.NoError(t, s.WaitIdle(ctx), "WaitIdle")
}

// makeNode returns a Ready node with capacity (and allocatable) c.
func makeNode(name string, c rl) *st.NodeWrapper {
	return st.MakeNode().Name(name).Capacity(c)
}

func createNode(t testing.TB, cs *client.Clientset, node *corev1.Node) *corev1.Node {
	t.Helper()
	out, err := cs.Nodes().Create(t.Context(), node, client.WriteOptions{})
	require.NoError(t, err, "create node %s", node.Name)
	return out
}

// makePod returns a pod in default with one container requesting req.
func makePod(name string, req rl) *st.PodWrapper {
	p := st.MakePod().Name(name).Req(req)
	p.Spec.Containers[0].Image = "busybox"
	return p
}

func createPod(t testing.TB, cs *client.Clientset, pod *corev1.Pod) *corev1.Pod {
	t.Helper()
	out, err := cs.Pods(pod.Namespace).Create(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", pod.Name)
	return out
}

// bound reports whether every pod named is bound.
func bound(names ...string) func(map[string]*corev1.Pod) bool {
	return func(pods map[string]*corev1.Pod) bool {
		for _, n := range names {
			if p, ok := pods[n]; !ok || p.Spec.NodeName == "" {
				return false
			}
		}
		return true
	}
}

// waitForPods lists the pods of ns and then watches them until cond holds
// for the pods seen (by name), and returns them. It fails the test after
// waitTimeout.
func waitForPods(t testing.TB, cs *client.Clientset, ns string, cond func(map[string]*corev1.Pod) bool) map[string]*corev1.Pod {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	list, err := cs.Pods(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err, "list pods")
	pods := map[string]*corev1.Pod{}
	for i := range list.Items {
		pods[list.Items[i].Name] = &list.Items[i]
	}
	if cond(pods) {
		return pods
	}
	w, err := cs.Pods(ns).Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err, "watch pods")
	defer w.Stop()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "pod watch ended")
			require.NotEqual(t, watch.Error, ev.Type, "pod watch failed: %v", ev.Object)
			if p, ok := ev.Object.(*corev1.Pod); ok && ev.Type != watch.Bookmark {
				if ev.Type == watch.Deleted {
					delete(pods, p.Name)
				} else {
					pods[p.Name] = p
				}
			}
			if cond(pods) {
				return pods
			}
		case <-ctx.Done():
			t.Fatalf("pods not as expected within %v:\n%s", waitTimeout, describePods(pods))
		}
	}
}

// describePods lists pods with their nodes, for failure messages.
func describePods(pods map[string]*corev1.Pod) string {
	var lines []string
	for name, p := range pods {
		lines = append(lines, fmt.Sprintf("  %s on %q", name, p.Spec.NodeName))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// waitForEvent lists the events of ns and then watches them until one
// satisfies match, and returns it.
func waitForEvent(t testing.TB, cs *client.Clientset, ns string, match func(*corev1.Event) bool) *corev1.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	list, err := cs.Events(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err, "list events")
	for i := range list.Items {
		if match(&list.Items[i]) {
			return &list.Items[i]
		}
	}
	w, err := cs.Events(ns).Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err, "watch events")
	defer w.Stop()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "event watch ended")
			if e, ok := ev.Object.(*corev1.Event); ok && (ev.Type == watch.Added || ev.Type == watch.Modified) && match(e) {
				return e
			}
		case <-ctx.Done():
			t.Fatalf("no matching event within %v", waitTimeout)
		}
	}
}

// eventFor matches events about pod with reason.
func eventFor(pod, reason string) func(*corev1.Event) bool {
	return func(e *corev1.Event) bool { return e.InvolvedObject.Name == pod && e.Reason == reason }
}

// podScheduledCondition returns the pod's PodScheduled condition.
func podScheduledCondition(p *corev1.Pod) (corev1.PodCondition, bool) {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return c, true
		}
	}
	return corev1.PodCondition{}, false
}

// bindInterceptor is a RoundTripper that hands every POST to a
// pods/{name}/binding subresource to onBind before the API server sees
// it: onBind returns a response to answer with instead, or nil to let the
// request through. It is the fault knob of these tests.
type bindInterceptor struct {
	next   http.RoundTripper
	onBind func(req *http.Request, pod string) *http.Response
}

func interceptBindings(onBind func(req *http.Request, pod string) *http.Response) func(http.RoundTripper) http.RoundTripper {
	return func(next http.RoundTripper) http.RoundTripper { return &bindInterceptor{next: next, onBind: onBind} }
}

func (b *bindInterceptor) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/binding") {
		parts := strings.Split(req.URL.Path, "/")
		if resp := b.onBind(req, parts[len(parts)-2]); resp != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return resp, nil
		}
	}
	return b.next.RoundTrip(req)
}

// statusResponse is an API error response with a Status body.
func statusResponse(req *http.Request, code int, reason metav1.StatusReason, message string) *http.Response {
	body := fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":%q,"reason":%q,"code":%d}`,
		message, reason, code)
	return &http.Response{
		StatusCode: code, Status: fmt.Sprintf("%d %s", code, http.StatusText(code)),
		Header:  http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(strings.NewReader(body)),
		Request: req, ProtoMajor: 1, ProtoMinor: 1,
	}
}
