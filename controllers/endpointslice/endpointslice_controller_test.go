package endpointslice_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/endpointslice"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/wait/waittest"
)

var web = map[string]string{"app": "web"}

// newEnv starts an API server with the EndpointSlice controller alone:
// no kubelet, so tests write pods' status themselves.
func newEnv(t *testing.T) (*client.Clientset, *manager.Manager) {
	t.Helper()
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	return cs, clustertest.StartManager(t, cl, clock.Real, endpointslice.Add)
}

func waitIdle(t *testing.T, mgr *manager.Manager) {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	require.NoError(t, mgr.WaitIdle(ctx), "WaitIdle")
}

// slicesOf lists the managed slices of Service name in default.
func slicesOf(t *testing.T, cs *client.Clientset, name string) []discoveryv1.EndpointSlice {
	t.Helper()
	return listSlices(t, cs, name).Items
}

func listSlices(t *testing.T, cs *client.Clientset, name string) *discoveryv1.EndpointSliceList {
	t.Helper()
	list, err := cs.EndpointSlices("default").List(t.Context(), client.ListOptions{
		LabelSelector: discoveryv1.LabelServiceName + "=" + name})
	require.NoError(t, err)
	return list
}

// waitSlices waits until the Service's slices satisfy cond: it lists
// them, and while they do not, watches for the next change.
func waitSlices(t *testing.T, cs *client.Clientset, name, what string, cond func([]discoveryv1.EndpointSlice) bool) []discoveryv1.EndpointSlice {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for {
		list := listSlices(t, cs, name)
		if cond(list.Items) {
			return list.Items
		}
		w, err := cs.EndpointSlices("default").Watch(ctx, client.ListOptions{
			LabelSelector: discoveryv1.LabelServiceName + "=" + name, ResourceVersion: list.ResourceVersion})
		require.NoError(t, err, "watch slices of %s", name)
		select {
		case <-w.ResultChan():
		case <-ctx.Done():
		}
		w.Stop()
		if ctx.Err() != nil {
			require.FailNow(t, "timed out", "waiting for %s; slices: %+v", what, list.Items)
		}
	}
}

func service(t *testing.T, cs *client.Clientset, name string, spec corev1.ServiceSpec) *corev1.Service {
	t.Helper()
	svc, err := cs.Services("default").Create(t.Context(), &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"team": "a"}}, Spec: spec,
	}, client.WriteOptions{})
	require.NoError(t, err, "create service %s", name)
	return svc
}

// pod creates a pod of web bound to node-1 with status IP ip and
// readiness ready.
func pod(t *testing.T, cs *client.Clientset, name, ip string, ready bool) *corev1.Pod {
	t.Helper()
	p, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: web},
		Spec: corev1.PodSpec{NodeName: "node-1", Hostname: name, Subdomain: "web", Containers: []corev1.Container{{
			Name: "nginx", Image: "nginx", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
		}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
	return setReady(t, cs, p, ip, ready)
}

func setReady(t *testing.T, cs *client.Clientset, p *corev1.Pod, ip string, ready bool) *corev1.Pod {
	t.Helper()
	p = p.DeepCopy()
	p.Status.Phase = corev1.PodRunning
	p.Status.PodIP, p.Status.PodIPs = ip, []corev1.PodIP{{IP: ip}}
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
	out, err := cs.Pods("default").UpdateStatus(t.Context(), p, client.WriteOptions{})
	require.NoError(t, err, "update status of pod %s", p.Name)
	return out
}

// endpointsOf returns the slices' endpoints by pod name.
func endpointsOf(ss []discoveryv1.EndpointSlice) map[string]discoveryv1.Endpoint {
	out := map[string]discoveryv1.Endpoint{}
	for _, s := range ss {
		for _, ep := range s.Endpoints {
			out[ep.TargetRef.Name] = ep
		}
	}
	return out
}

// TestSliceOfAService: a Service's slice carries the upstream name,
// labels and owner, its ports resolved by name, and one endpoint per pod
// with ready/serving/terminating conditions, node, hostname and pod.
func TestSliceOfAService(t *testing.T) {
	cs, _ := newEnv(t)
	ready := pod(t, cs, "web-0", "10.244.0.10", true)
	pod(t, cs, "web-1", "10.244.0.11", false)
	svc := service(t, cs, "web", corev1.ServiceSpec{Selector: web, ClusterIP: corev1.ClusterIPNone,
		Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}}})

	got := waitSlices(t, cs, "web", "two endpoints", func(ss []discoveryv1.EndpointSlice) bool {
		return len(ss) == 1 && len(ss[0].Endpoints) == 2
	})
	s := got[0]
	assert.True(t, strings.HasPrefix(s.Name, "web-") && len(s.Name) == len("web-")+5, "name %q is <service>-<random>", s.Name)
	assert.Equal(t, map[string]string{"team": "a", discoveryv1.LabelServiceName: "web",
		discoveryv1.LabelManagedBy: endpointslice.ManagedBy, "service.kubernetes.io/headless": ""}, s.Labels)
	require.Len(t, s.OwnerReferences, 1)
	assert.Equal(t, svc.UID, s.OwnerReferences[0].UID, "owned by the Service")
	assert.Equal(t, discoveryv1.AddressTypeIPv4, s.AddressType)
	require.Len(t, s.Ports, 1)
	assert.Equal(t, "http", *s.Ports[0].Name)
	assert.Equal(t, int32(8080), *s.Ports[0].Port, "the named targetPort, resolved")
	assert.Equal(t, corev1.ProtocolTCP, *s.Ports[0].Protocol)

	eps := endpointsOf(got)
	tests := []struct {
		pod                         string
		addr                        string
		ready, serving, terminating bool
	}{
		{pod: "web-0", addr: "10.244.0.10", ready: true, serving: true},
		{pod: "web-1", addr: "10.244.0.11"},
	}
	for _, tc := range tests {
		ep, ok := eps[tc.pod]
		require.True(t, ok, "endpoint of %s", tc.pod)
		assert.Equal(t, []string{tc.addr}, ep.Addresses, "%s addresses", tc.pod)
		assert.Equal(t, tc.ready, *ep.Conditions.Ready, "%s ready", tc.pod)
		assert.Equal(t, tc.serving, *ep.Conditions.Serving, "%s serving", tc.pod)
		assert.Equal(t, tc.terminating, *ep.Conditions.Terminating, "%s terminating", tc.pod)
		assert.Equal(t, "node-1", *ep.NodeName, "%s node", tc.pod)
		assert.Equal(t, tc.pod, *ep.Hostname, "%s hostname under its subdomain", tc.pod)
	}
	assert.Equal(t, ready.UID, eps["web-0"].TargetRef.UID)

	// Turning ready changes the conditions in place: same slice.
	unready, err := cs.Pods("default").Get(t.Context(), "web-1", client.GetOptions{})
	require.NoError(t, err)
	setReady(t, cs, unready, "10.244.0.11", true)
	after := waitSlices(t, cs, "web", "web-1 ready", func(ss []discoveryv1.EndpointSlice) bool {
		ep, ok := endpointsOf(ss)["web-1"]
		return ok && *ep.Conditions.Ready
	})
	require.Len(t, after, 1)
	assert.Equal(t, s.Name, after[0].Name, "the endpoint stays in its slice")

	// A terminating pod stays, not ready, terminating.
	require.NoError(t, cs.Pods("default").Delete(t.Context(), "web-0", metav1.DeleteOptions{}))
	waitSlices(t, cs, "web", "web-0 terminating", func(ss []discoveryv1.EndpointSlice) bool {
		ep, ok := endpointsOf(ss)["web-0"]
		return ok && *ep.Conditions.Terminating && !*ep.Conditions.Ready && *ep.Conditions.Serving
	})
}

// TestHundredEndpointsPerSlice: 250 pods make three slices, none over 100
// endpoints, every pod in exactly one; scaling down to none leaves one
// empty placeholder slice.
func TestHundredEndpointsPerSlice(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 250 pods")
	}
	cs, _ := newEnv(t)
	service(t, cs, "web", corev1.ServiceSpec{Selector: web, Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromInt32(8080)}}})
	const n = 250
	for i := range n {
		pod(t, cs, fmt.Sprintf("web-%d", i), fmt.Sprintf("10.244.%d.%d", i/200, i%200+2), true)
	}
	got := waitSlices(t, cs, "web", "250 endpoints", func(ss []discoveryv1.EndpointSlice) bool {
		return len(endpointsOf(ss)) == n
	})
	assert.Len(t, got, 3, "ceil(250/100) slices")
	total := 0
	for _, s := range got {
		assert.LessOrEqual(t, len(s.Endpoints), endpointslice.MaxEndpointsPerSlice, "slice %s", s.Name)
		total += len(s.Endpoints)
	}
	assert.Equal(t, n, total, "every pod once")

	require.NoError(t, cs.Pods("default").DeleteCollection(t.Context(), metav1.DeleteOptions{GracePeriodSeconds: new(int64(0))}, client.ListOptions{}))
	got = waitSlices(t, cs, "web", "one placeholder", func(ss []discoveryv1.EndpointSlice) bool {
		return len(ss) == 1 && len(ss[0].Endpoints) == 0
	})
	assert.Empty(t, got[0].Ports, "a placeholder has no ports")
}

// TestSlicesFollowTheService: a Service without a selector gets no slice
// from the controller, an ExternalName loses its slices, and a deleted
// Service's slices go.
func TestSlicesFollowTheService(t *testing.T) {
	cs, mgr := newEnv(t)
	pod(t, cs, "web-0", "10.244.0.10", true)
	service(t, cs, "manual", corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}})
	svc := service(t, cs, "web", corev1.ServiceSpec{Selector: web, Ports: []corev1.ServicePort{{Port: 80}}})
	waitSlices(t, cs, "web", "a slice", func(ss []discoveryv1.EndpointSlice) bool { return len(ss) == 1 })
	waitIdle(t, mgr)
	assert.Empty(t, slicesOf(t, cs, "manual"), "no selector, no slice")

	require.NoError(t, cs.Services("default").Delete(t.Context(), svc.Name, metav1.DeleteOptions{}))
	waitSlices(t, cs, "web", "no slice", func(ss []discoveryv1.EndpointSlice) bool { return len(ss) == 0 })

	// Someone else's slice of a Service is left alone.
	mine := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "manual-1", Labels: map[string]string{
			discoveryv1.LabelServiceName: "manual", discoveryv1.LabelManagedBy: "someone"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.1.2.3"}}},
	}
	_, err := cs.EndpointSlices("default").Create(t.Context(), mine, client.WriteOptions{})
	require.NoError(t, err)
	waitIdle(t, mgr)
	names := []string{}
	for _, s := range slicesOf(t, cs, "manual") {
		names = append(names, s.Name)
	}
	assert.True(t, slices.Equal([]string{"manual-1"}, names), "slices of manual: %v", names)
}
