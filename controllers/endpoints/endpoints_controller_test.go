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
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/endpoints"
)

var web = map[string]string{"app": "web"}

// TestReadyAndNotReadyAddresses: the selected pods with an IP are split
// by readiness; pods without an IP, finished pods, pods of other labels
// or namespaces are left out; publishNotReadyAddresses puts every pod in
// addresses. The Endpoints carry the Service's labels and the trigger
// time annotation.
func TestReadyAndNotReadyAddresses(t *testing.T) {
	e := newEnv(t)
	ready := createPod(t, e.cs, podSpec{name: "ready", labels: web, ip: "10.244.0.12", ready: true})
	unready := createPod(t, e.cs, podSpec{name: "unready", labels: web, ip: "10.244.0.11"})
	createPod(t, e.cs, podSpec{name: "no-ip", labels: web, ready: true})
	createPod(t, e.cs, podSpec{name: "done", labels: web, ip: "10.244.0.13", ready: false, phase: corev1.PodSucceeded})
	createPod(t, e.cs, podSpec{name: "other", labels: map[string]string{"app": "db"}, ip: "10.244.0.14", ready: true})
	createPod(t, e.cs, podSpec{ns: metav1.NamespaceSystem, name: "elsewhere", labels: web, ip: "10.244.0.15", ready: true})
	svc := service(t, e.cs, metav1.NamespaceDefault, "web", web, port("http", 80, intstr.FromInt32(8080)))

	ep := waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{{
		Addresses:         []corev1.EndpointAddress{address(ready)},
		NotReadyAddresses: []corev1.EndpointAddress{address(unready)},
		Ports:             []corev1.EndpointPort{tcp("http", 8080)},
	}})
	assert.Equal(t, map[string]string{"svc": "web"}, ep.Labels, "the Service's labels, no headless label")
	require.Contains(t, ep.Annotations, endpoints.AnnotationLastChangeTriggerTime)
	trigger, err := time.Parse(time.RFC3339Nano, ep.Annotations[endpoints.AnnotationLastChangeTriggerTime])
	require.NoError(t, err)
	// The first write shows the Service's creation; a later one, made
	// because a pod's status reached the cache after the Service, shows
	// that pod's change.
	assert.True(t, trigger.Equal(svc.CreationTimestamp.Time) || trigger.Equal(transitionTime),
		"trigger time %v is neither the Service's creation nor the pods' change", trigger)

	svc.Spec.PublishNotReadyAddresses = true
	_, err = e.cs.Services("default").Update(t.Context(), svc, client.WriteOptions{})
	require.NoError(t, err)
	waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(unready), address(ready)},
		Ports:     []corev1.EndpointPort{tcp("http", 8080)},
	}})
}

// TestReadinessAndDeletionMoveAddresses: a pod turning ready moves to
// addresses, and the trigger time annotation says when it turned; a
// terminating pod leaves the Endpoints.
func TestReadinessAndDeletionMoveAddresses(t *testing.T) {
	e := newEnv(t)
	a := createPod(t, e.cs, podSpec{name: "a", labels: web, ip: "10.244.1.2"})
	b := createPod(t, e.cs, podSpec{name: "b", labels: web, ip: "10.244.1.3", ready: true})
	service(t, e.cs, "default", "web", web, port("", 80, intstr.FromInt32(80)))
	waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{{
		Addresses:         []corev1.EndpointAddress{address(b)},
		NotReadyAddresses: []corev1.EndpointAddress{address(a)},
		Ports:             []corev1.EndpointPort{tcp("", 80)},
	}})

	becameReady := transitionTime.Add(time.Minute)
	a = setStatus(t, e.cs, a, podSpec{ip: "10.244.1.2", ready: true, since: becameReady})
	ep := waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(a), address(b)},
		Ports:     []corev1.EndpointPort{tcp("", 80)},
	}})
	assert.Equal(t, becameReady.Format(time.RFC3339Nano), ep.Annotations[endpoints.AnnotationLastChangeTriggerTime],
		"the trigger time is the change that moved a")

	// Bound to a node with no kubelet, b stays terminating.
	require.NoError(t, e.cs.Pods("default").Delete(t.Context(), "b", metav1.DeleteOptions{}))
	waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(a)},
		Ports:     []corev1.EndpointPort{tcp("", 80)},
	}})
}

// TestNamedTargetPort: a named targetPort resolves per pod through its
// container ports of that name and protocol (and sidecars'); a pod
// without the name is left out of that port only.
func TestNamedTargetPort(t *testing.T) {
	e := newEnv(t)
	http := createPod(t, e.cs, podSpec{name: "http", labels: web, ip: "10.244.2.2", ready: true,
		ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}})
	alt := createPod(t, e.cs, podSpec{name: "alt", labels: web, ip: "10.244.2.3", ready: true,
		ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 9090}}})
	udp := createPod(t, e.cs, podSpec{name: "udp", labels: web, ip: "10.244.2.4", ready: true,
		ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolUDP}}})
	plain := createPod(t, e.cs, podSpec{name: "plain", labels: web, ip: "10.244.2.5", ready: true})
	service(t, e.cs, "default", "web", web,
		port("http", 80, intstr.FromString("http")), port("admin", 81, intstr.FromInt32(8081)))

	waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{
		{
			Addresses: []corev1.EndpointAddress{address(http), address(alt), address(udp), address(plain)},
			Ports:     []corev1.EndpointPort{tcp("admin", 8081)},
		},
		{
			Addresses: []corev1.EndpointAddress{address(http)},
			Ports:     []corev1.EndpointPort{tcp("http", 8080)},
		},
		{
			Addresses: []corev1.EndpointAddress{address(alt)},
			Ports:     []corev1.EndpointPort{tcp("http", 9090)},
		},
	})
}

// TestLabelChangeMovesPod: a pod whose labels change leaves the Endpoints
// of the Service it no longer matches and joins the other's.
func TestLabelChangeMovesPod(t *testing.T) {
	e := newEnv(t)
	pod := createPod(t, e.cs, podSpec{name: "p", labels: map[string]string{"app": "blue"}, ip: "10.244.3.2", ready: true})
	stay := createPod(t, e.cs, podSpec{name: "stay", labels: map[string]string{"app": "blue"}, ip: "10.244.3.3", ready: true})
	service(t, e.cs, "default", "blue", map[string]string{"app": "blue"}, port("", 80, intstr.FromInt32(80)))
	service(t, e.cs, "default", "green", map[string]string{"app": "green"}, port("", 80, intstr.FromInt32(80)))
	waitEndpoints(t, e.cs, "default", "blue", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(pod), address(stay)},
		Ports:     []corev1.EndpointPort{tcp("", 80)},
	}})
	waitEndpoints(t, e.cs, "default", "green", nil)

	pod.Labels = map[string]string{"app": "green"}
	_, err := e.cs.Pods("default").Update(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err)
	waitEndpoints(t, e.cs, "default", "blue", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(stay)},
		Ports:     []corev1.EndpointPort{tcp("", 80)},
	}})
	waitEndpoints(t, e.cs, "default", "green", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(pod)},
		Ports:     []corev1.EndpointPort{tcp("", 80)},
	}})
}

// TestEndpointsFollowTheirService: the Endpoints go with their Service,
// and are written again when someone else deletes them.
func TestEndpointsFollowTheirService(t *testing.T) {
	e := newEnv(t)
	pod := createPod(t, e.cs, podSpec{name: "p", labels: web, ip: "10.244.4.2", ready: true})
	service(t, e.cs, "default", "web", web, port("", 80, intstr.FromInt32(80)))
	want := []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{address(pod)}, Ports: []corev1.EndpointPort{tcp("", 80)}}}
	first := waitEndpoints(t, e.cs, "default", "web", want)

	require.NoError(t, e.cs.Endpoints("default").Delete(t.Context(), "web", metav1.DeleteOptions{}))
	again := clustertest.WaitFor(t, e.cs.Endpoints("default"), "web", "recreated", func(ep *corev1.Endpoints, found bool) bool {
		return found && ep.UID != first.UID
	})
	assert.True(t, equalSubsets(again.Subsets, want), "recreated with the same subsets: %+v", again.Subsets)

	require.NoError(t, e.cs.Services("default").Delete(t.Context(), "web", metav1.DeleteOptions{}))
	clustertest.WaitFor(t, e.cs.Endpoints("default"), "web", "deleted", func(_ *corev1.Endpoints, found bool) bool { return !found })
}

// TestServiceWithoutSelectorLeftAlone: the Endpoints of a Service without
// a selector are someone else's: never rewritten nor deleted.
func TestServiceWithoutSelectorLeftAlone(t *testing.T) {
	e := newEnv(t)
	createPod(t, e.cs, podSpec{name: "p", labels: web, ip: "10.244.5.2", ready: true})
	manual, err := e.cs.Endpoints("default").Create(t.Context(), &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Name: "external"},
		Subsets: []corev1.EndpointSubset{{
			Addresses: []corev1.EndpointAddress{{IP: "192.0.2.10"}},
			Ports:     []corev1.EndpointPort{tcp("db", 5432)},
		}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	service(t, e.cs, "default", "external", nil, port("db", 5432, intstr.FromInt32(5432)))
	// A barrier: Services are handled in order, so once the next one's
	// Endpoints exist and the controller is idle, "external" was synced.
	service(t, e.cs, "default", "barrier", web, port("", 80, intstr.FromInt32(80)))
	clustertest.WaitFor(t, e.cs.Endpoints("default"), "barrier", "created", func(_ *corev1.Endpoints, found bool) bool { return found })
	e.waitIdle(t)

	got, err := e.cs.Endpoints("default").Get(t.Context(), "external", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, manual.ResourceVersion, got.ResourceVersion, "not written")
	assert.Equal(t, manual.Subsets, got.Subsets)
}

// TestNoWriteWithoutChange: a pod change the Endpoints do not show (an
// annotation) writes nothing.
func TestNoWriteWithoutChange(t *testing.T) {
	e := newEnv(t)
	pod := createPod(t, e.cs, podSpec{name: "p", labels: web, ip: "10.244.6.2", ready: true})
	other := createPod(t, e.cs, podSpec{name: "q", labels: map[string]string{"app": "other"}, ip: "10.244.6.3"})
	service(t, e.cs, "default", "web", web, port("", 80, intstr.FromInt32(80)))
	service(t, e.cs, "default", "other", map[string]string{"app": "other"}, port("", 80, intstr.FromInt32(80)))
	before := waitEndpoints(t, e.cs, "default", "web", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(pod)}, Ports: []corev1.EndpointPort{tcp("", 80)}}})

	pod.Annotations = map[string]string{"note": "changed"}
	_, err := e.cs.Pods("default").Update(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err)
	// A barrier: pod events arrive in order, so once q's readiness shows
	// in "other" and the controller is idle, p's update was handled.
	other = setStatus(t, e.cs, other, podSpec{ip: "10.244.6.3", ready: true})
	waitEndpoints(t, e.cs, "default", "other", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(other)}, Ports: []corev1.EndpointPort{tcp("", 80)}}})
	e.waitIdle(t)

	after, err := e.cs.Endpoints("default").Get(t.Context(), "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before.ResourceVersion, after.ResourceVersion, "Endpoints rewritten for an annotation")
}

// TestHeadlessService: a headless Service's Endpoints are labelled so,
// and without ports still list the addresses, with the hostname of pods
// in its subdomain.
func TestHeadlessService(t *testing.T) {
	e := newEnv(t)
	pod := createPod(t, e.cs, podSpec{name: "p", labels: web, ip: "10.244.7.2", ready: true})
	named, err := e.cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "named", Labels: web},
		Spec: corev1.PodSpec{NodeName: "node-1", Hostname: "named-0", Subdomain: "dns",
			Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	named = setStatus(t, e.cs, named, podSpec{ip: "10.244.7.3", ready: true})
	_, err = e.cs.Services("default").Create(t.Context(), &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "dns"},
		Spec:       corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: web},
	}, client.WriteOptions{})
	require.NoError(t, err)

	namedAddr := address(named)
	namedAddr.Hostname = "named-0"
	ep := waitEndpoints(t, e.cs, "default", "dns", []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{address(pod), namedAddr},
	}})
	assert.Contains(t, ep.Labels, endpoints.LabelHeadless)
}

// TestLeftoverEndpointsDeletedAtStart: Endpoints whose Service went while
// no controller ran are deleted when it starts; a leader-election lock
// and the Endpoints of a selector-less Service stay.
func TestLeftoverEndpointsDeletedAtStart(t *testing.T) {
	ep := func(name string, annotations map[string]string) *corev1.Endpoints {
		return &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: annotations},
			Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "192.0.2.1"}}, Ports: []corev1.EndpointPort{tcp("", 80)}}}}
	}
	e := newEnv(t, func(cs *client.Clientset) {
		for _, obj := range []*corev1.Endpoints{
			ep("orphan", nil),
			ep("lock", map[string]string{"control-plane.alpha.kubernetes.io/leader": "{}"}),
			ep("manual", nil),
		} {
			_, err := cs.Endpoints("default").Create(t.Context(), obj, client.WriteOptions{})
			require.NoError(t, err)
		}
		service(t, cs, "default", "manual", nil, port("", 80, intstr.FromInt32(80)))
	})
	e.waitIdle(t)
	for name, want := range map[string]bool{"orphan": false, "lock": true, "manual": true} {
		_, err := e.cs.Endpoints("default").Get(t.Context(), name, client.GetOptions{})
		assert.Equal(t, want, err == nil, "endpoints %s exists: %v", name, err)
	}
}
