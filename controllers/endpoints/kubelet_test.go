package endpoints_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/endpoints"
)

// TestEndpointsOfRunningPods runs pods on simulated kubelets: nginx whose
// readiness probe passes is ready, nginx whose probe gets a 404 is not,
// and busybox without the named port serves only the numbered one. The
// API server's own "kubernetes" Service, which has no selector, keeps
// the Endpoints the API server wrote.
func TestEndpointsOfRunningPods(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	// The cluster's certificates are made on this clock, and the client
	// checks them on the real one: start at the real time.
	clk := clocktest.NewFake(clock.Real.Now().Truncate(time.Second))
	c := clustertest.New(t, clustertest.WithNodes(2), clustertest.WithControllers(), clustertest.WithClock(clk))
	cs := c.Clientset()
	kubernetes, err := cs.Endpoints("default").Get(t.Context(), "kubernetes", client.GetOptions{})
	require.NoError(t, err, "the API server's Endpoints")
	mgr := clustertest.StartManager(t, cs.Client(), clk, endpoints.Add)

	nginx := func(name, probePath string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: web},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "nginx", Image: "nginx", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
				ReadinessProbe: &corev1.Probe{
					ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: probePath, Port: intstr.FromString("http")}},
					PeriodSeconds: 10, FailureThreshold: 1, SuccessThreshold: 1, TimeoutSeconds: 1,
				},
			}}},
		}
	}
	busybox := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "busybox", Labels: web},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "main", Image: "busybox", Command: []string{"sleep", "3600"},
		}}},
	}
	for _, pod := range []*corev1.Pod{nginx("good", "/"), nginx("bad", "/missing"), busybox} {
		_, err := cs.Pods("default").Create(t.Context(), pod, client.WriteOptions{})
		require.NoError(t, err, "create pod %s", pod.Name)
	}
	service(t, cs, "default", "web", web,
		port("web", 80, intstr.FromString("http")), port("metrics", 9090, intstr.FromInt32(9090)))

	readiness := func(want corev1.ConditionStatus) func(*corev1.Pod, bool) bool {
		return func(p *corev1.Pod, found bool) bool {
			return found && p.Status.PodIP != "" && p.Status.Phase == corev1.PodRunning && podReady(p) == want
		}
	}
	good := clustertest.WaitFor(t, cs.Pods("default"), "good", "ready", readiness(corev1.ConditionTrue))
	bad := clustertest.WaitFor(t, cs.Pods("default"), "bad", "running, not ready", readiness(corev1.ConditionFalse))
	box := clustertest.WaitFor(t, cs.Pods("default"), "busybox", "ready", readiness(corev1.ConditionTrue))

	waitEndpoints(t, cs, "default", "web", []corev1.EndpointSubset{
		{
			Addresses:         sortedByIP(address(box), address(good)),
			NotReadyAddresses: []corev1.EndpointAddress{address(bad)},
			Ports:             []corev1.EndpointPort{tcp("metrics", 9090)},
		},
		{
			Addresses:         []corev1.EndpointAddress{address(good)},
			NotReadyAddresses: []corev1.EndpointAddress{address(bad)},
			Ports:             []corev1.EndpointPort{tcp("web", 80)},
		},
	})
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, mgr.WaitIdle(ctx))
	require.NoError(t, c.WaitIdle(ctx))

	after, err := cs.Endpoints("default").Get(t.Context(), "kubernetes", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, kubernetes.ResourceVersion, after.ResourceVersion, "the kubernetes Endpoints were written")
}

func podReady(p *corev1.Pod) corev1.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status
		}
	}
	return ""
}

// sortedByIP orders two addresses as the controller does: by IP.
func sortedByIP(a, b corev1.EndpointAddress) []corev1.EndpointAddress {
	if ipLess(b.IP, a.IP) {
		a, b = b, a
	}
	return []corev1.EndpointAddress{a, b}
}
