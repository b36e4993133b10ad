package readinessprobe

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/workshop/workshoptest"
)

// epoch is the fake clock's start; any fixed time does.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func podReady(p *corev1.Pod) corev1.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status
		}
	}
	return corev1.ConditionUnknown
}

// addresses returns the IPs of the ready and of the not-ready addresses
// of e.
func addresses(e *corev1.Endpoints) (ready, notReady []string) {
	for _, s := range e.Subsets {
		for _, a := range s.Addresses {
			ready = append(ready, a.IP)
		}
		for _, a := range s.NotReadyAddresses {
			notReady = append(notReady, a.IP)
		}
	}
	return ready, notReady
}

// TestPodsAndEndpointsFollowTheProbe runs a kubelet of the test's own
// with Check as its prober, beside a cluster whose endpoints controller
// keeps a Service's Endpoints: a pod is an endpoint once its readiness
// probe passes, and a not-ready one when it fails again.
func TestPodsAndEndpointsFollowTheProbe(t *testing.T) {
	workshoptest.Require(t)
	// A skeleton fails here, with its message, rather than after a wait.
	check(t, kubelet.ProbeTarget{Container: &corev1.Container{Name: "main"}, Probe: &corev1.Probe{}}, "Check(a probe with no handler)")

	clk := clocktest.NewFake(epoch)
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithClock(clk), clustertest.WithControllers("endpoints-controller"))
	cs := c.Clientset()
	ctx := t.Context()
	const node = "workshop-node"
	kl, err := kubelet.New(kubelet.Options{NodeName: node, Clientset: cs, Clock: clk, Prober: Prober()})
	require.NoError(t, err, "kubelet.New")
	clustertest.Start(t, kl)
	clustertest.Receive(t, kl.Ready(), "the kubelet registered")
	// step moves the fake clock once nothing is in flight: a probe
	// running while the clock jumps past its timeout would fail.
	step := func(d time.Duration) {
		t.Helper()
		clustertest.WaitIdle(t, kl)
		clk.Step(d)
		clustertest.WaitIdle(t, kl)
		waitCtx, cancel := clustertest.WaitContext(t)
		defer cancel()
		require.NoError(t, c.WaitIdle(waitCtx), "the cluster idle after %v", d)
	}

	_, err = cs.Services("default").Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromInt32(80)}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create service web")
	probe := func(h corev1.ProbeHandler) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: h, PeriodSeconds: 5, FailureThreshold: 1, SuccessThreshold: 1, TimeoutSeconds: 1}
	}
	pods := []*corev1.Pod{
		// Ready from the first probe until 30 s in, when it removes the
		// file its probe reads.
		{ObjectMeta: metav1.ObjectMeta{Name: "worker", Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{
				Name: "main", Image: "busybox",
				Command:        []string{"sh", "-c", "touch /tmp/ready; sleep 30; rm -f /tmp/ready; sleep 3600"},
				ReadinessProbe: probe(corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"cat", "/tmp/ready"}}}),
			}}}},
		// nginx answers / on its port 80.
		{ObjectMeta: metav1.ObjectMeta{Name: "nginx", Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{
				Name: "main", Image: "nginx", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
				ReadinessProbe: probe(corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromString("http")}}),
			}}}},
	}
	for _, p := range pods {
		_, err := cs.Pods("default").Create(ctx, p, client.WriteOptions{})
		require.NoError(t, err, "create pod %s", p.Name)
		clustertest.WaitFor(t, cs.Pods("default"), p.Name, "Running",
			func(p *corev1.Pod, found bool) bool { return found && p.Status.Phase == corev1.PodRunning })
	}

	// The first probes, at 0 s, as each container starts: both pass.
	ips := map[string]string{}
	for _, p := range pods {
		got := clustertest.WaitFor(t, cs.Pods("default"), p.Name, "Ready once its readiness probe passes",
			func(p *corev1.Pod, found bool) bool { return found && podReady(p) == corev1.ConditionTrue })
		ips[p.Name] = got.Status.PodIP
	}
	clustertest.WaitFor(t, cs.Endpoints("default"), "web", "both pods ready endpoints",
		func(e *corev1.Endpoints, found bool) bool {
			ready, notReady := addresses(e)
			return found && len(ready) == 2 && len(notReady) == 0
		})

	// At 30 s the worker removes /tmp/ready; its next probe fails.
	for range 7 {
		step(5 * time.Second)
	}
	clustertest.WaitFor(t, cs.Pods("default"), "worker", "not Ready once its readiness probe fails",
		func(p *corev1.Pod, found bool) bool { return found && podReady(p) == corev1.ConditionFalse })
	e := clustertest.WaitFor(t, cs.Endpoints("default"), "web", "the worker among the not-ready addresses",
		func(e *corev1.Endpoints, found bool) bool {
			_, notReady := addresses(e)
			return found && len(notReady) == 1
		})
	ready, notReady := addresses(e)
	require.Equal(t, []string{ips["nginx"]}, ready, "the ready addresses of web: nginx's IP")
	require.Equal(t, []string{ips["worker"]}, notReady, "the not-ready addresses of web: the worker's IP")
}
