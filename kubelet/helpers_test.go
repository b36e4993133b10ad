package kubelet_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet"
)

// epoch is where every test's fake clock starts.
var epoch = time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC)

// podCIDR is the test node's pod range.
var podCIDR = netip.MustParsePrefix("10.244.1.0/24")

// harness is a started kubelet for node-1 on a fake clock, talking to an
// API server of its own through the in-memory transport.
type harness struct {
	t     *testing.T
	clock *clocktest.Fake
	cs    *client.Clientset
	kl    *kubelet.Kubelet
	node  string
	stop  func()
}

func newHarness(t *testing.T, mutate ...func(*kubelet.Options)) *harness {
	t.Helper()
	return newHarnessOn(t, apiservertest.New(t).Handler(), apiservertest.AdminToken, nil, mutate...)
}

// newHarnessOn is newHarness on an API server of the test's: the
// kubelet's requests go to handler with token, through wrap when it is
// set; h.cs, the test's clientset, is not wrapped.
func newHarnessOn(t *testing.T, handler http.Handler, token string, wrap func(http.RoundTripper) http.RoundTripper,
	mutate ...func(*kubelet.Options)) *harness {
	t.Helper()
	clientset := func(wrap func(http.RoundTripper) http.RoundTripper) *client.Clientset {
		cl, err := client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(handler),
			BearerToken: token, WrapTransport: wrap})
		require.NoError(t, err)
		cs, err := client.NewClientset(cl)
		require.NoError(t, err)
		return cs
	}
	h := &harness{t: t, clock: clocktest.NewFake(epoch), cs: clientset(nil), node: "node-1"}
	opts := kubelet.Options{
		NodeName: h.node, Clientset: h.cs, PodCIDR: podCIDR, Clock: h.clock,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if wrap != nil {
		opts.Clientset = clientset(wrap)
	}
	for _, m := range mutate {
		m(&opts)
	}
	kl, err := kubelet.New(opts)
	require.NoError(t, err, "kubelet.New")
	h.kl = kl
	h.stop = startKubelet(t, kl)
	return h
}

// startKubelet runs kl until the test ends and waits until it is Ready.
// The function it returns stops kl and waits for Start to return; it may
// be called more than once.
func startKubelet(t *testing.T, kl *kubelet.Kubelet) func() {
	t.Helper()
	stop := clustertest.Start(t, kl).Stop
	wait, cancelWait := clustertest.WaitContext(t)
	defer cancelWait()
	select {
	case <-kl.Ready():
	case <-wait.Done():
		t.Fatalf("kubelet %s not ready within %v", kl.NodeName(), clustertest.WaitTimeout)
	}
	return stop
}

// waitIdle waits for the kubelet to have nothing to do at the clock's time.
func (h *harness) waitIdle() {
	h.t.Helper()
	ctx, cancel := clustertest.WaitContext(h.t)
	defer cancel()
	require.NoError(h.t, h.kl.WaitIdle(ctx), "WaitIdle")
}

// step moves the clock and waits for the kubelet to catch up.
func (h *harness) step(d time.Duration) {
	h.t.Helper()
	h.clock.Step(d)
	h.waitIdle()
}

// busybox returns a pod of one busybox container running script.
func busybox(name string, policy corev1.RestartPolicy, script string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{
			RestartPolicy: policy,
			Containers:    []corev1.Container{{Name: "main", Image: "busybox", Command: []string{"sh", "-c", script}}},
		},
	}
}

// run creates pod in default and binds it to the harness's node, as the
// scheduler would.
func (h *harness) run(pod *corev1.Pod) *corev1.Pod {
	h.t.Helper()
	ctx := h.t.Context()
	created, err := h.cs.Pods("default").Create(ctx, pod, client.WriteOptions{})
	require.NoError(h.t, err, "create pod %s", pod.Name)
	binding := &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name},
		Target:     corev1.ObjectReference{Kind: "Node", Name: h.node},
	}
	require.NoError(h.t, h.cs.Pods("default").CreateSubresource(ctx, pod.Name, "binding", binding, nil, client.WriteOptions{}),
		"bind pod %s", pod.Name)
	return created
}

// waitPod waits until the pod satisfies cond and returns it; what names
// the condition in the failure message.
func (h *harness) waitPod(name, what string, cond func(*corev1.Pod) bool) *corev1.Pod {
	h.t.Helper()
	ctx, cancel := clustertest.WaitContext(h.t)
	defer cancel()
	pods := h.cs.Pods("default")
	var last *corev1.Pod
	for {
		p, err := pods.Get(ctx, name, client.GetOptions{})
		if ctx.Err() != nil {
			h.t.Fatalf("pod %s: %s: not within %v; last seen:\n%s", name, what, clustertest.WaitTimeout, describe(last))
		}
		require.NoError(h.t, err, "get pod %s", name)
		last = p
		if cond(p) {
			return p
		}
		w, err := pods.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: p.ResourceVersion})
		if err != nil {
			continue // ctx ended: reported above
		}
		for ev := range w.ResultChan() {
			if p, ok := ev.Object.(*corev1.Pod); ok && ev.Type != watch.Deleted {
				last = p
				if cond(p) {
					w.Stop()
					return p
				}
			}
		}
		w.Stop()
	}
}

// waitGone waits until the pod is deleted and returns its last state, the
// object of the DELETED event. It watches from seen, the pod as it was
// before the delete, so no event is missed however fast the delete is.
func (h *harness) waitGone(seen *corev1.Pod) *corev1.Pod {
	h.t.Helper()
	ctx, cancel := clustertest.WaitContext(h.t)
	defer cancel()
	pods := h.cs.Pods("default")
	for {
		w, err := pods.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + seen.Name, ResourceVersion: seen.ResourceVersion})
		if ctx.Err() != nil {
			h.t.Fatalf("pod %s not deleted within %v; last seen:\n%s", seen.Name, clustertest.WaitTimeout, describe(seen))
		}
		require.NoError(h.t, err, "watch pod %s", seen.Name)
		for ev := range w.ResultChan() {
			if p, ok := ev.Object.(*corev1.Pod); ok {
				seen = p
				if ev.Type == watch.Deleted {
					w.Stop()
					return p
				}
			}
		}
		w.Stop()
	}
}

func describe(p *corev1.Pod) string {
	if p == nil {
		return "(never)"
	}
	s := fmt.Sprintf("phase=%s podIP=%s deleting=%v", p.Status.Phase, p.Status.PodIP, p.DeletionTimestamp != nil)
	for _, cs := range append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...) {
		s += fmt.Sprintf("\n  %s: restarts=%d ready=%v state=%+v last=%+v", cs.Name, cs.RestartCount, cs.Ready, stateString(cs.State), stateString(cs.LastTerminationState))
	}
	for _, c := range p.Status.Conditions {
		s += fmt.Sprintf("\n  condition %s=%s %s", c.Type, c.Status, c.Reason)
	}
	return s
}

func stateString(s corev1.ContainerState) string {
	switch {
	case s.Waiting != nil:
		return "waiting(" + s.Waiting.Reason + ": " + s.Waiting.Message + ")"
	case s.Running != nil:
		return "running(" + s.Running.StartedAt.String() + ")"
	case s.Terminated != nil:
		return fmt.Sprintf("terminated(%d %s %s..%s)", s.Terminated.ExitCode, s.Terminated.Reason, s.Terminated.StartedAt, s.Terminated.FinishedAt)
	}
	return "none"
}

// Pod predicates for waitPod.

func phaseIs(phase corev1.PodPhase) func(*corev1.Pod) bool {
	return func(p *corev1.Pod) bool { return p.Status.Phase == phase }
}

func condition(p *corev1.Pod, t corev1.PodConditionType) corev1.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c.Status
		}
	}
	return ""
}

func containerStatus(p *corev1.Pod, name string) *corev1.ContainerStatus {
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// running reports whether the container runs its restarts-th restart.
func running(name string, restarts int32) func(*corev1.Pod) bool {
	return func(p *corev1.Pod) bool {
		cs := containerStatus(p, name)
		return cs != nil && cs.State.Running != nil && cs.RestartCount == restarts
	}
}

// waitingFor reports whether the container waits with reason after
// restarts restarts.
func waitingFor(name, reason string, restarts int32) func(*corev1.Pod) bool {
	return func(p *corev1.Pod) bool {
		cs := containerStatus(p, name)
		return cs != nil && cs.State.Waiting != nil && cs.State.Waiting.Reason == reason && cs.RestartCount == restarts
	}
}

// waitEvents waits until the pod has Events with every one of reasons
// (from the kubelet) and returns all the kubelet's Events about it.
func (h *harness) waitEvents(pod string, reasons ...string) []corev1.Event {
	h.t.Helper()
	ctx, cancel := clustertest.WaitContext(h.t)
	defer cancel()
	events := h.cs.Events("default")
	for {
		list, err := events.List(ctx, client.ListOptions{})
		if ctx.Err() != nil {
			h.t.Fatalf("events %v of pod %s not recorded within %v", reasons, pod, clustertest.WaitTimeout)
		}
		require.NoError(h.t, err, "list events")
		var mine []corev1.Event
		have := map[string]bool{}
		for _, e := range list.Items {
			if e.InvolvedObject.Name == pod && e.Source.Component == "kubelet" {
				mine = append(mine, e)
				have[e.Reason] = true
			}
		}
		if !slices.ContainsFunc(reasons, func(r string) bool { return !have[r] }) {
			return mine
		}
		w, err := events.Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
		if err != nil {
			continue
		}
		// Any new event: list again.
		select {
		case <-w.ResultChan():
		case <-ctx.Done():
		}
		w.Stop()
	}
}

// logClient keeps no idle connection, whose goroutines would outlive the
// test.
var logClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// kubeletLogs reads a container's log from the kubelet's log server.
func (h *harness) kubeletLogs(pod, container string, query url.Values) (int, string) {
	h.t.Helper()
	u := url.URL{Scheme: "http", Host: h.kl.LogAddr().String(),
		Path: fmt.Sprintf("/containerLogs/default/%s/%s", pod, container), RawQuery: query.Encode()}
	req, err := http.NewRequestWithContext(h.t.Context(), http.MethodGet, u.String(), nil)
	require.NoError(h.t, err)
	resp, err := logClient.Do(req)
	require.NoError(h.t, err, "GET %s", u.String())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err, "read %s", u.String())
	return resp.StatusCode, string(body)
}

// apiLogs reads a container's log through the API server's pods/log.
func (h *harness) apiLogs(pod string, query url.Values) string {
	h.t.Helper()
	rc, err := h.cs.Pods("default").Stream(h.t.Context(), pod, "log", query)
	require.NoError(h.t, err, "pods/%s/log", pod)
	defer rc.Close()
	body, err := io.ReadAll(rc)
	require.NoError(h.t, err, "read pods/%s/log", pod)
	return string(body)
}

func ptr[T any](v T) *T { return &v }
