package builder_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
)

// labeler is the toy controller: it labels every pod reconciled=true,
// reading the cache and writing through the API, and remembers the pods
// it found gone.
type labeler struct {
	pods   *client.Clientset
	lister interface {
		Get(ns, name string) (*corev1.Pod, error)
	}
	deletedCh chan reconcile.Request
}

func (l *labeler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pod, err := l.lister.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		l.deletedCh <- req
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if pod.Labels["reconciled"] == "true" {
		return reconcile.Result{}, nil
	}
	pod = pod.DeepCopy() // the cache's objects are shared
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels["reconciled"] = "true"
	_, err = l.pods.Pods(pod.Namespace).Update(ctx, pod, client.WriteOptions{})
	return reconcile.Result{}, err // a conflict is retried with backoff
}

func TestLabelerReconcilesCreateUpdateDelete(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	mgr := newManager(t, c)
	lister, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	require.NoError(t, err)
	l := &labeler{pods: cs, lister: lister, deletedCh: make(chan reconcile.Request, 10)}
	calls := newRequests(l.Reconcile)
	require.NoError(t, builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(calls))

	// A pod that exists before the manager starts is reconciled from the
	// initial list.
	createPod(t, cs, newPod("before", nil))
	start(t, mgr)
	clustertest.WaitIdle(t, mgr)
	assert.GreaterOrEqual(t, calls.count(req("default", "before")), 1, "WaitIdle covers the initial list")

	calls.drain()
	web := createPod(t, cs, newPod("web", map[string]string{"app": "web"}))
	calls.waitFor(t, req("default", "web"))
	// The label write is an update, reconciled again (and left alone).
	calls.waitFor(t, req("default", "web"))
	got, err := cs.Pods("default").Get(t.Context(), "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "true", got.Labels["reconciled"], "create: labelled")

	// An update that removes the label is reconciled and undone.
	got.Labels = map[string]string{"app": "web"}
	_, err = cs.Pods("default").Update(t.Context(), got, client.WriteOptions{})
	require.NoError(t, err)
	calls.waitFor(t, req("default", "web"))
	calls.waitFor(t, req("default", "web"))
	got, err = cs.Pods("default").Get(t.Context(), "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "true", got.Labels["reconciled"], "update: labelled again")

	require.NoError(t, cs.Pods("default").Delete(t.Context(), web.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64(0))}))
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case r := <-l.deletedCh:
		assert.Equal(t, req("default", "web"), r, "delete: reconciled, and found gone")
	case <-ctx.Done():
		t.Fatal("delete not reconciled")
	}
}

func TestOwnsEnqueuesTheControllingOwner(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	mgr := newManager(t, c)
	calls := newRequests(nil)
	require.NoError(t, builder.ControllerManagedBy(mgr).For(&corev1.Node{}).Owns(&corev1.Pod{}).Complete(calls))
	node1, node2 := createNode(t, cs, "node-1"), createNode(t, cs, "node-2")
	start(t, mgr)
	clustertest.WaitIdle(t, mgr)
	require.Equal(t, 1, calls.count(req("", "node-1")), "the For kind's objects are reconciled")
	require.Equal(t, 1, calls.count(req("", "node-2")))

	// node-2 merely owns this pod, node-1 controls the next: only node-1
	// is enqueued. The informer delivers the pods in order, so once node-1
	// was reconciled the first pod's event has been handled too.
	calls.drain()
	createPod(t, cs, newPod("owned-only", nil, controllerRef(node2, false)))
	pod := createPod(t, cs, newPod("controlled", nil, controllerRef(node1, true)))
	calls.waitFor(t, req("", "node-1"))
	clustertest.WaitIdle(t, mgr)
	assert.Equal(t, 1, calls.count(req("", "node-2")), "a non-controller owner is not enqueued")
	assert.Equal(t, 0, calls.count(req("default", "controlled")), "owned objects are not reconciled themselves")

	// Every change of the owned pod enqueues its owner: an update...
	pod.Labels = map[string]string{"changed": "yes"}
	_, err := cs.Pods("default").Update(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err)
	calls.waitFor(t, req("", "node-1"))
	// ...and a delete.
	require.NoError(t, cs.Pods("default").Delete(t.Context(), pod.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64(0))}))
	calls.waitFor(t, req("", "node-1"))
}

func TestWatchesWithMapFunc(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	mgr := newManager(t, c)
	calls := newRequests(nil)
	// Reconcile the node a pod says it wants, from the pod's label.
	podToNode := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, obj metav1.Object) []reconcile.Request {
		if node := obj.GetObjectMeta().Labels["node"]; node != "" {
			return []reconcile.Request{req("", node)}
		}
		return nil
	})
	require.NoError(t, builder.ControllerManagedBy(mgr).
		For(&corev1.Node{}).
		Watches(&corev1.Pod{}, podToNode).
		WithOptions(controller.Options{MaxConcurrentReconciles: 2}).
		Complete(calls))
	start(t, mgr)

	createPod(t, cs, newPod("wants-node-3", map[string]string{"node": "node-3"}))
	calls.waitFor(t, req("", "node-3"))
}

func TestWatchesRawSourceChannel(t *testing.T) {
	c := newClient(t)
	mgr := newManager(t, c)
	calls := newRequests(nil)
	events := make(chan event.GenericEvent)
	require.NoError(t, builder.ControllerManagedBy(mgr).
		Named("external").
		WatchesRawSource(source.Channel(events, handler.EnqueueRequestForObject{})).
		Complete(calls))
	start(t, mgr)
	events <- event.GenericEvent{Object: newPod("from-outside", nil)}
	calls.waitFor(t, req("default", "from-outside"))
}

func TestResyncReenqueuesEverything(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	mgr := newManager(t, c, func(o *manager.Options) {
		o.Clock = clk
		o.SyncPeriod = time.Minute
	})
	calls := newRequests(nil)
	require.NoError(t, builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(calls))
	for _, name := range podNames(3) {
		createPod(t, cs, newPod(name, nil))
	}
	start(t, mgr)
	clustertest.WaitIdle(t, mgr)
	for _, name := range podNames(3) {
		require.Equal(t, 1, calls.count(req("default", name)), "initial reconcile of %s", name)
	}

	// The reflector's resync timer is the clock's only waiter: the
	// controller has no delays.
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1))
	calls.drain()
	clk.Step(time.Minute)
	for _, name := range podNames(3) {
		calls.waitFor(t, req("default", name))
	}
	clustertest.WaitIdle(t, mgr)
	for _, name := range podNames(3) {
		assert.Equal(t, 2, calls.count(req("default", name)), "%s reconciled again by the resync", name)
	}
}

// unregistered is a kind no scheme knows.
type unregistered struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (u *unregistered) DeepCopyObject() runtime.Object { return runtime.DeepCopy(u) }

func TestBuilderMistakesAreErrors(t *testing.T) {
	c := newClient(t)
	mgr := newManager(t, c)
	r := newRequests(nil)
	tests := []struct {
		name  string
		build func() error
	}{
		{name: "For twice", build: func() error {
			return builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).For(&corev1.Node{}).Complete(r)
		}},
		{name: "For nil", build: func() error { return builder.ControllerManagedBy(mgr).For(nil).Complete(r) }},
		{name: "unknown type", build: func() error {
			return builder.ControllerManagedBy(mgr).For(&unregistered{}).Complete(r)
		}},
		{name: "unknown owned type", build: func() error {
			return builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Owns(&unregistered{}).Complete(r)
		}},
		{name: "no reconciler", build: func() error { return builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(nil) }},
		{name: "no For and no name", build: func() error {
			return builder.ControllerManagedBy(mgr).Watches(&corev1.Pod{}, handler.EnqueueRequestForObject{}).Complete(r)
		}},
		{name: "Owns without For", build: func() error {
			return builder.ControllerManagedBy(mgr).Named("x").Owns(&corev1.Pod{}).Complete(r)
		}},
		{name: "Watches without handler", build: func() error {
			return builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Watches(&corev1.Node{}, nil).Complete(r)
		}},
		{name: "no manager", build: func() error { return builder.ControllerManagedBy(nil).For(&corev1.Pod{}).Complete(r) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			assert.NotPanics(t, func() { err = tc.build() })
			assert.Error(t, err, "Complete after: %s", tc.name)
		})
	}
	err := builder.ControllerManagedBy(mgr).For(nil).For(&corev1.Pod{}).For(&corev1.Node{}).Complete(r)
	assert.ErrorContains(t, err, "For(nil)", "the first mistake is the one returned")
}
