package scheduler_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
)

// rl is a resource list in quantity strings.
type rl = map[corev1.ResourceName]string

// newFakeClock returns a fake clock at a fixed, arbitrary time.
func newFakeClock() *clocktest.Fake {
	return clocktest.NewFake(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
}

// newClientset returns a clientset reaching api in memory, through wrap's
// RoundTripper when wrap is given.
func newClientset(t testing.TB, api *apiserver.Server, wrap ...func(http.RoundTripper) http.RoundTripper) *client.Clientset {
	t.Helper()
	rt := client.NewInMemoryTransport(api.Handler())
	for _, w := range wrap {
		rt = w(rt)
	}
	c, err := client.New(client.Config{Host: "http://in-memory", Transport: rt, BearerToken: apiservertest.AdminToken})
	require.NoError(t, err, "client.New")
	cs, err := client.NewClientset(c)
	require.NoError(t, err, "NewClientset")
	return cs
}

// startScheduler builds a scheduler with opts (Clientset set to cs), runs
// it until the test ends (clustertest.Start), and waits until it is Ready.
func startScheduler(t testing.TB, cs *client.Clientset, opts scheduler.Options) *scheduler.Scheduler {
	t.Helper()
	opts.Clientset = cs
	s, err := scheduler.New(opts)
	require.NoError(t, err, "scheduler.New")
	running := clustertest.Start(t, s)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case <-s.Ready():
	case <-running.Done():
		t.Fatal("the scheduler stopped before it was ready")
	case <-ctx.Done():
		t.Fatalf("scheduler not ready within %v", clustertest.WaitTimeout)
	}
	return s
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

// waitForPods waits until cond holds for the pods of ns (by name), and
// returns them.
func waitForPods(t testing.TB, cs *client.Clientset, ns string, cond func(map[string]*corev1.Pod) bool) map[string]*corev1.Pod {
	t.Helper()
	return clustertest.WaitForList(t, cs.Pods(ns), client.ListOptions{}, "pods of "+ns, cond)
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
