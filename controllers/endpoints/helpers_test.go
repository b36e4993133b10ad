package endpoints_test

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/endpoints"
	"github.com/minicp/minicp/controllers/manager"
)

// env is an API server with the endpoints controller running on its own
// manager.
type env struct {
	cs  *client.Clientset
	mgr *manager.Manager
}

// newEnv starts an API server alone. Objects made by prepare exist before
// the controller starts.
func newEnv(t *testing.T, prepare ...func(cs *client.Clientset)) *env {
	t.Helper()
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	for _, p := range prepare {
		p(cs)
	}
	return &env{cs: cs, mgr: clustertest.StartManager(t, cl, clock.Real, endpoints.Add)}
}

func (e *env) waitIdle(t *testing.T) {
	t.Helper()
	clustertest.WaitIdle(t, e.mgr)
}

// waitEndpoints waits for the Endpoints name in ns to hold want.
func waitEndpoints(t *testing.T, cs *client.Clientset, ns, name string, want []corev1.EndpointSubset) *corev1.Endpoints {
	t.Helper()
	return clustertest.WaitFor(t, cs.Endpoints(ns), name, "subsets", func(ep *corev1.Endpoints, found bool) bool {
		return found && equalSubsets(ep.Subsets, want)
	})
}

// equalSubsets compares subsets as they come back from the API, where
// empty lists are absent.
func equalSubsets(got, want []corev1.EndpointSubset) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !equalAddresses(got[i].Addresses, want[i].Addresses) ||
			!equalAddresses(got[i].NotReadyAddresses, want[i].NotReadyAddresses) ||
			len(got[i].Ports) != len(want[i].Ports) {
			return false
		}
		for j := range got[i].Ports {
			g, w := got[i].Ports[j], want[i].Ports[j]
			if g.Name != w.Name || g.Port != w.Port || g.Protocol != w.Protocol {
				return false
			}
		}
	}
	return true
}

func equalAddresses(got, want []corev1.EndpointAddress) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.IP != w.IP || g.Hostname != w.Hostname || (g.NodeName == nil) != (w.NodeName == nil) ||
			g.NodeName != nil && *g.NodeName != *w.NodeName || (g.TargetRef == nil) != (w.TargetRef == nil) ||
			g.TargetRef != nil && *g.TargetRef != *w.TargetRef {
			return false
		}
	}
	return true
}

// address is the address the controller writes for pod.
func address(pod *corev1.Pod) corev1.EndpointAddress {
	node := pod.Spec.NodeName
	return corev1.EndpointAddress{IP: pod.Status.PodIP, NodeName: &node,
		TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}}
}

func tcp(name string, port int32) corev1.EndpointPort {
	return corev1.EndpointPort{Name: name, Port: port, Protocol: corev1.ProtocolTCP}
}

// service makes a Service in ns selecting selector (none: nil), labelled
// svc=name.
func service(t *testing.T, cs *client.Clientset, ns, name string, selector map[string]string, ports ...corev1.ServicePort) *corev1.Service {
	t.Helper()
	svc, err := cs.Services(ns).Create(t.Context(), &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"svc": name}},
		Spec:       corev1.ServiceSpec{Selector: selector, Ports: ports},
	}, client.WriteOptions{})
	require.NoError(t, err, "create service %s", name)
	return svc
}

func port(name string, port int32, target intstr.IntOrString) corev1.ServicePort {
	return corev1.ServicePort{Name: name, Port: port, TargetPort: target}
}

// podSpec is what a pod is made of: the tests run no kubelet, so the
// status (IP, readiness, phase) is written through pods/status.
type podSpec struct {
	ns, name string
	labels   map[string]string
	ip       string
	ready    bool
	phase    corev1.PodPhase
	ports    []corev1.ContainerPort
	// since is the Ready condition's lastTransitionTime; zero means
	// transitionTime.
	since time.Time
}

// transitionTime is the pods' Ready lastTransitionTime: the trigger time
// the controller reports for them.
var transitionTime = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// createPod creates the pod bound to node-1 and writes its status.
func createPod(t *testing.T, cs *client.Clientset, p podSpec) *corev1.Pod {
	t.Helper()
	if p.ns == "" {
		p.ns = metav1.NamespaceDefault
	}
	pod, err := cs.Pods(p.ns).Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: p.name, Labels: p.labels},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{
			Name: "main", Image: "nginx", Ports: p.ports,
		}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", p.name)
	return setStatus(t, cs, pod, p)
}

// setStatus writes p's phase, IP and readiness as pod's status.
func setStatus(t *testing.T, cs *client.Clientset, pod *corev1.Pod, p podSpec) *corev1.Pod {
	t.Helper()
	pod = pod.DeepCopy()
	pod.Status.Phase = p.phase
	if pod.Status.Phase == "" {
		pod.Status.Phase = corev1.PodRunning
	}
	pod.Status.PodIP = p.ip
	pod.Status.PodIPs = nil
	if p.ip != "" {
		pod.Status.PodIPs = []corev1.PodIP{{IP: p.ip}}
	}
	ready := corev1.ConditionFalse
	if p.ready {
		ready = corev1.ConditionTrue
	}
	since := p.since
	if since.IsZero() {
		since = transitionTime
	}
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: ready,
		LastTransitionTime: metav1.NewTime(since)}}
	out, err := cs.Pods(pod.Namespace).UpdateStatus(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err, "update status of pod %s", pod.Name)
	return out
}

// ipLess orders IPs numerically.
func ipLess(a, b string) bool {
	return netip.MustParseAddr(a).Less(netip.MustParseAddr(b))
}
