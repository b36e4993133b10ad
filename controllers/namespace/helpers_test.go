package namespace_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/namespace"
	"github.com/minicp/minicp/informer"
)

// maxSteps bounds how often stepUntilGone moves the clock: far more than
// any deletion here needs, so a namespace that never goes fails the test
// instead of stepping until the deadline.
const maxSteps = 100

// t0 is when every fake clock starts.
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// harness is a cluster (or an API server alone) and a Manager running
// only the namespace controller, all on one fake clock, so the API
// server's deletionTimestamps and the controller's waits agree.
type harness struct {
	clk *clocktest.Fake
	cs  *client.Clientset
	mgr *manager.Manager
	// api is the API server of newAPIHarness, for clients of its own.
	api *apiserver.Server
}

// newAPIHarness starts an API server alone and the controller, with the
// controllers in adds on the same Manager.
func newAPIHarness(t *testing.T, adds ...func(*manager.Manager) error) *harness {
	t.Helper()
	clk := clocktest.NewFake(t0)
	api := apiservertest.New(t, func(o *apiserver.Options) { o.Clock = clk })
	cl := clustertest.InMemoryClient(t, api)
	cs, err := client.NewClientset(cl)
	require.NoError(t, err, "NewClientset")
	return &harness{clk: clk, cs: cs, api: api,
		mgr: clustertest.StartManager(t, cl, clk, append([]func(*manager.Manager) error{namespace.Add}, adds...)...)}
}

// newClusterHarness starts a cluster with nodes simulated nodes (whose
// kubelets run the pods and stop them gracefully), no controllers of its
// own, and the controller on a Manager of the test's.
func newClusterHarness(t *testing.T, nodes int) *harness {
	t.Helper()
	// The cluster signs its serving certificate on its clock while TLS
	// checks it on the wall clock (cluster/cluster.go newCerts), so this
	// fake clock starts at the wall clock's time.
	clk := clocktest.NewFake(clock.Real.Now())
	c := clustertest.New(t, clustertest.WithNodes(nodes), clustertest.WithControllers(), clustertest.WithClock(clk))
	return &harness{clk: clk, cs: c.Clientset(), mgr: clustertest.StartManager(t, c.Clientset().Client(), clk, namespace.Add)}
}

// testContext returns a context that ends with the test or after
// clustertest.WaitTimeout.
func testContext(t *testing.T) context.Context {
	ctx, cancel := clustertest.WaitContext(t)
	t.Cleanup(cancel)
	return ctx
}

// waitIdle returns once the Manager has nothing to do that is due: the
// barrier before looking at what the controller did or stepping the
// clock. It does not wait for the cluster's kubelets: a kubelet stopping
// a pod is busy for the pod's whole grace period on the clock
// (kubelet/kill_pod.go killContainers), which only a step can end.
func (h *harness) waitIdle(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, h.mgr.WaitIdle(ctx), "manager WaitIdle")
}

// step moves the clock by d between two idle barriers.
func (h *harness) step(t *testing.T, ctx context.Context, d time.Duration) {
	t.Helper()
	h.waitIdle(t, ctx)
	h.clk.Step(d)
	h.waitIdle(t, ctx)
}

// deleting deletes the namespace name and returns once the Manager has
// seen it being deleted and has nothing left to do: from then on the
// controller waits on the clock (the deletion grace period), so a step
// cannot come before its wait starts.
func (h *harness) deleting(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	inf, err := h.mgr.GetCache().GetInformer(&corev1.Namespace{})
	require.NoError(t, err, "namespace informer")
	seen := make(chan struct{})
	var once sync.Once
	see := func(obj runtime.Object) {
		if ns, ok := obj.(*corev1.Namespace); ok && ns.Name == name && ns.DeletionTimestamp != nil {
			once.Do(func() { close(seen) })
		}
	}
	// An add counts too: a Manager whose informer has not listed yet
	// (StartManager does not wait for that) first sees the namespace,
	// already deleted, in its initial list.
	reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj runtime.Object, _ bool) { see(obj) },
		UpdateFunc: func(_, obj runtime.Object) { see(obj) },
	}, informer.HandlerOptions{})
	require.NoError(t, err, "AddEventHandler")
	defer func() { _ = inf.RemoveEventHandler(reg) }()
	require.NoError(t, h.cs.Namespaces().Delete(ctx, name, metav1.DeleteOptions{}), "delete namespace %s", name)
	select {
	case <-seen:
	case <-ctx.Done():
		t.Fatalf("the manager did not see namespace %s deleted: %v", name, ctx.Err())
	}
	h.waitIdle(t, ctx)
}

// watchNamespaces watches the namespaces from now on.
func (h *harness) watchNamespaces(t *testing.T, ctx context.Context) watch.Interface {
	t.Helper()
	list, err := h.cs.Namespaces().List(ctx, client.ListOptions{})
	require.NoError(t, err, "list namespaces")
	w, err := h.cs.Namespaces().Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err, "watch namespaces")
	t.Cleanup(w.Stop)
	return w
}

// stepUntilGone moves the clock by step, between idle barriers, until w
// reports the namespace name DELETED, and returns its last state.
func (h *harness) stepUntilGone(t *testing.T, ctx context.Context, w watch.Interface, name string, step time.Duration) *corev1.Namespace {
	t.Helper()
	for range maxSteps {
		if ns := deletedFrom(t, w, name); ns != nil {
			return ns
		}
		h.step(t, ctx, step)
	}
	if ns, err := h.cs.Namespaces().Get(ctx, name, client.GetOptions{}); err == nil {
		t.Fatalf("namespace %s still there after %d steps of %v: %+v", name, maxSteps, step, ns.Status)
	}
	// Gone, but its DELETED event trailed the last barrier.
	return waitDeleted(t, ctx, w, name)
}

// waitDeleted reads w until it reports the namespace name DELETED, and
// returns its last state.
func waitDeleted(t *testing.T, ctx context.Context, w watch.Interface, name string) *corev1.Namespace {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch of namespaces ended before %s was deleted", name)
			if ns, isNS := ev.Object.(*corev1.Namespace); isNS && ev.Type == watch.Deleted && ns.Name == name {
				return ns
			}
		case <-ctx.Done():
			t.Fatalf("namespace %s was not deleted: %v", name, ctx.Err())
		}
	}
}

// deletedFrom drains the events w has ready and returns the namespace
// name if one of them is its deletion.
func deletedFrom(t *testing.T, w watch.Interface, name string) *corev1.Namespace {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch of namespaces ended")
			if ns, isNS := ev.Object.(*corev1.Namespace); isNS && ev.Type == watch.Deleted && ns.Name == name {
				return ns
			}
		default:
			return nil
		}
	}
}

// condition returns ns's condition of type ct, failing the test if there
// is none.
func condition(t *testing.T, ns *corev1.Namespace, ct corev1.NamespaceConditionType) corev1.NamespaceCondition {
	t.Helper()
	for _, c := range ns.Status.Conditions {
		if c.Type == ct {
			return c
		}
	}
	t.Fatalf("namespace %s has no %s condition: %+v", ns.Name, ct, ns.Status.Conditions)
	return corev1.NamespaceCondition{}
}
