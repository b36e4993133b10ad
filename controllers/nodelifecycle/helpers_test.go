package nodelifecycle_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/nodelifecycle"
)

// env is an API server without kubelets, its nodes and Leases written by
// the test, and the controllers on their own manager and fake clock.
type env struct {
	t   *testing.T
	cs  *client.Clientset
	clk *clocktest.Fake
	mgr *manager.Manager
}

// newEnv starts the API server; prepare makes what must exist before the
// controllers start (the nodes).
func newEnv(t *testing.T, prepare func(e *env)) *env {
	t.Helper()
	// One fake clock for the API server and the controller: a node's
	// creation is stamped on the clock its age is measured on.
	clk := clocktest.NewFake(clock.Real.Now().Truncate(time.Second))
	cl := clustertest.InMemoryClient(t, apiservertest.New(t, func(o *apiserver.Options) { o.Clock = clk }))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	e := &env{t: t, cs: cs, clk: clk}
	if prepare != nil {
		prepare(e)
	}
	e.mgr = clustertest.StartManager(t, cl, e.clk, nodelifecycle.Add)
	e.waitIdle()
	return e
}

func (e *env) waitIdle() {
	e.t.Helper()
	clustertest.WaitIdle(e.t, e.mgr)
}

// step moves the clock by d in NodeMonitorPeriod steps, renewing the
// Leases of the nodes alive before each, and lets the controllers catch
// up after each.
func (e *env) step(d time.Duration, alive ...string) {
	e.t.Helper()
	for d > 0 {
		for _, name := range alive {
			e.renewLease(name)
		}
		s := min(d, nodelifecycle.NodeMonitorPeriod)
		e.clk.Step(s)
		d -= s
		e.waitIdle()
	}
}

// stepUntil steps the clock a second at a time, renewing alive's
// Leases, until cond holds for node name, for at most limit. A first
// NoExecute taint waits for its zone's token, one every 10s, and there
// is none right after the zone looked fully disrupted (as upstream's
// SwapLimiter drains the new limiter), which can happen while the
// Manager's caches fill.
func (e *env) stepUntil(name string, limit time.Duration, cond func(*corev1.Node) bool, alive ...string) {
	e.t.Helper()
	for waited := time.Duration(0); waited < limit && !cond(e.node(name)); waited += time.Second {
		e.step(time.Second, alive...)
	}
}

// createNode registers a node as a kubelet would: Ready, with its Lease.
func (e *env) createNode(name string, taints ...corev1.Taint) *corev1.Node {
	e.t.Helper()
	now := metav1.NewTime(e.clk.Now())
	var conds []corev1.NodeCondition
	for _, c := range []struct {
		t      corev1.NodeConditionType
		status corev1.ConditionStatus
	}{
		{corev1.NodeMemoryPressure, corev1.ConditionFalse}, {corev1.NodeDiskPressure, corev1.ConditionFalse},
		{corev1.NodePIDPressure, corev1.ConditionFalse}, {corev1.NodeReady, corev1.ConditionTrue},
	} {
		conds = append(conds, corev1.NodeCondition{Type: c.t, Status: c.status, LastHeartbeatTime: now, LastTransitionTime: now})
	}
	node, err := e.cs.Nodes().Create(e.t.Context(), &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.NodeSpec{Taints: taints},
		Status:     corev1.NodeStatus{Conditions: conds},
	}, client.WriteOptions{})
	require.NoError(e.t, err, "create node %s", name)
	e.renewLease(name)
	return node
}

// renewLease sets the node's Lease's renewTime to now, creating it.
func (e *env) renewLease(name string) {
	e.t.Helper()
	leases := e.cs.Leases(metav1.NamespaceNodeLease)
	renew := metav1.NewMicroTime(e.clk.Now())
	lease, err := leases.Get(e.t.Context(), name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		duration := int32(40)
		_, err = leases.Create(e.t.Context(), &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       coordinationv1.LeaseSpec{HolderIdentity: &name, LeaseDurationSeconds: &duration, RenewTime: &renew},
		}, client.WriteOptions{})
		require.NoError(e.t, err, "create lease %s", name)
		return
	}
	require.NoError(e.t, err)
	lease.Spec.RenewTime = &renew
	_, err = leases.Update(e.t.Context(), lease, client.WriteOptions{})
	require.NoError(e.t, err, "renew lease %s", name)
}

// postReady writes the node's status as its kubelet does: every
// condition healthy, heartbeat now.
func (e *env) postReady(name string) {
	e.t.Helper()
	require.NoError(e.t, client.RetryOnConflict(e.t.Context(), client.DefaultRetry, func() error {
		node, err := e.cs.Nodes().Get(e.t.Context(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.NewTime(e.clk.Now())
		for i := range node.Status.Conditions {
			c := &node.Status.Conditions[i]
			want := corev1.ConditionFalse
			if c.Type == corev1.NodeReady {
				want = corev1.ConditionTrue
			}
			if c.Status != want {
				c.Status, c.LastTransitionTime, c.Reason, c.Message = want, now, "KubeletReady", ""
			}
			c.LastHeartbeatTime = now
		}
		_, err = e.cs.Nodes().UpdateStatus(e.t.Context(), node, client.WriteOptions{})
		return err
	}))
}

// createPod creates a pod bound to node, with tolerations, running and
// ready (as far as its status says).
func (e *env) createPod(name, node string, tolerations ...corev1.Toleration) *corev1.Pod {
	e.t.Helper()
	pod, err := e.cs.Pods("default").Create(e.t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{NodeName: node, Tolerations: tolerations,
			Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(e.t, err, "create pod %s", name)
	// The controllers may write the pod's status meanwhile (a pod that
	// does not tolerate its node's taints is evicted at once).
	err = client.RetryOnConflict(e.t.Context(), client.DefaultRetry, func() error {
		pod.Status.Phase = corev1.PodRunning
		pod.Status.PodIP = "10.244.0.10"
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady,
			Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(e.clk.Now())})
		updated, err := e.cs.Pods("default").UpdateStatus(e.t.Context(), pod, client.WriteOptions{})
		if err == nil {
			pod = updated
			return nil
		}
		if got, getErr := e.cs.Pods("default").Get(e.t.Context(), name, client.GetOptions{}); getErr == nil {
			pod = got
		}
		return err
	})
	require.NoError(e.t, err, "status of pod %s", name)
	return pod
}

func tolerate(key string, seconds *int64) corev1.Toleration {
	return corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: seconds}
}

func secs(n int64) *int64 { return &n }

func (e *env) node(name string) *corev1.Node {
	e.t.Helper()
	node, err := e.cs.Nodes().Get(e.t.Context(), name, client.GetOptions{})
	require.NoError(e.t, err)
	return node
}

func (e *env) pod(name string) *corev1.Pod {
	e.t.Helper()
	pod, err := e.cs.Pods("default").Get(e.t.Context(), name, client.GetOptions{})
	require.NoError(e.t, err)
	return pod
}

// waitEvicted waits until the pod is being deleted (no kubelet finishes
// the deletion).
func (e *env) waitEvicted(name string) *corev1.Pod {
	e.t.Helper()
	return clustertest.WaitFor(e.t, e.cs.Pods("default"), name, "evicted", func(p *corev1.Pod, found bool) bool {
		return !found || p.DeletionTimestamp != nil
	})
}

func condition(node *corev1.Node, t corev1.NodeConditionType) corev1.NodeCondition {
	for _, c := range node.Status.Conditions {
		if c.Type == t {
			return c
		}
	}
	return corev1.NodeCondition{}
}

func podReady(pod *corev1.Pod) corev1.ConditionStatus {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status
		}
	}
	return ""
}

func hasTaint(node *corev1.Node, key string, effect corev1.TaintEffect) bool {
	for _, t := range node.Spec.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}

// waitEvent returns an event in ns about the object named about, with
// reason and a message containing message.
func waitEvent(t *testing.T, cs *client.Clientset, ns, about, reason, message string) *corev1.Event {
	t.Helper()
	return clustertest.WaitForEvent(t, cs, ns, func(ev *corev1.Event) bool {
		return ev.InvolvedObject.Name == about && ev.Reason == reason && strings.Contains(ev.Message, message)
	})
}

// events returns the Events in ns with reason.
func events(t *testing.T, cs *client.Clientset, ns, reason string) []corev1.Event {
	t.Helper()
	list, err := cs.Events(ns).List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	var out []corev1.Event
	for _, ev := range list.Items {
		if ev.Reason == reason {
			out = append(out, ev)
		}
	}
	return out
}
