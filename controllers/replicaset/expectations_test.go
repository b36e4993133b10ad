package replicaset_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/replicaset"
)

// slowEnv is an API server and a Reconciler whose Manager's pod watch is
// held back (slowWatch): the Reconciler's cache never shows the pods it
// creates until the test releases the watch. Nothing but the test calls
// the Reconciler.
type slowEnv struct {
	cs   *client.Clientset
	mgr  *manager.Manager
	r    *replicaset.Reconciler
	slow *slowWatch
}

func newSlowEnv(t *testing.T, opts replicaset.Options) *slowEnv {
	t.Helper()
	api := apiservertest.New(t)
	slow := newSlowWatch(client.NewInMemoryTransport(api.Handler()), "pods")
	cl, err := client.New(client.Config{Host: "http://in-memory", Transport: slow, BearerToken: apiservertest.AdminToken})
	require.NoError(t, err)
	cs, err := client.NewClientset(clustertest.InMemoryClient(t, api))
	require.NoError(t, err)
	e := &slowEnv{cs: cs, slow: slow}
	e.mgr = clustertest.StartManager(t, cl, nil, func(mgr *manager.Manager) error {
		e.r, err = replicaset.NewReconciler(mgr, opts)
		return err
	})
	clustertest.WaitIdle(t, e.mgr) // the informers have listed: what follows comes by watch
	return e
}

// reconcileN reconciles default/name n times in a row.
func (e *slowEnv) reconcileN(t *testing.T, name string, n int) {
	t.Helper()
	req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: name}}
	for i := range n {
		_, err := e.r.Reconcile(t.Context(), req)
		require.NoError(t, err, "reconcile %d", i+1)
	}
}

// cachedPods returns the pods the Reconciler's cache holds.
func (e *slowEnv) cachedPods(t *testing.T) []*corev1.Pod {
	t.Helper()
	lister, err := cache.ListerFor[*corev1.Pod](e.mgr.GetCache())
	require.NoError(t, err)
	pods, err := lister.List(nil)
	require.NoError(t, err)
	return pods
}

// TestExpectationsPreventDoubleCreateOnSlowWatch: a second sync before
// the watch delivers the first sync's pods sees none in its cache, and
// without expectations would create them all again.
func TestExpectationsPreventDoubleCreateOnSlowWatch(t *testing.T) {
	e := newSlowEnv(t, replicaset.Options{})
	rs := createRS(t, e.cs, newReplicaSet("web", 3))
	waitCached(t, e.mgr, rs, false)

	e.reconcileN(t, "web", 2)
	assert.Empty(t, e.cachedPods(t), "the pod watch is held: the second sync saw no pod")
	pods := listPods(t, e.cs)
	assert.Len(t, ownedBy(rs, pods), 3, "created once:\n%s", describePods(pods))
	assert.False(t, e.r.Expectations().Satisfied("default/web"), "three creations still to observe")
}

// TestBurstReplicasBoundsOneSync: one sync creates at most BurstReplicas
// pods, and the next waits for them to be observed.
func TestBurstReplicasBoundsOneSync(t *testing.T) {
	e := newSlowEnv(t, replicaset.Options{BurstReplicas: 2})
	rs := createRS(t, e.cs, newReplicaSet("web", 5))
	waitCached(t, e.mgr, rs, false)

	e.reconcileN(t, "web", 2)
	pods := listPods(t, e.cs)
	assert.Len(t, ownedBy(rs, pods), 2, "one burst:\n%s", describePods(pods))
}

// recordingQueue is a handler.Queue that keeps what it is given.
type recordingQueue struct{ reqs []reconcile.Request }

func (q *recordingQueue) Add(req reconcile.Request) { q.reqs = append(q.reqs, req) }

// take returns the Requests added since the last take, as strings.
func (q *recordingQueue) take() []string {
	var out []string
	for _, r := range q.reqs {
		out = append(out, r.String())
	}
	q.reqs = nil
	return out
}

// TestPodEventsFeedExpectationsAndWakeTheirReplicaSets drives the pod
// event handler with pods from the API server: a graceful deletion is
// observed when the deletionTimestamp appears and not again at the final
// delete; a pod first seen terminating is no creation; orphans wake the
// ReplicaSets that match them, and a pod changing controller wakes both.
func TestPodEventsFeedExpectationsAndWakeTheirReplicaSets(t *testing.T) {
	e := newSlowEnv(t, replicaset.Options{})
	e.slow.Release() // this test reads the cache as it is
	web := createRS(t, e.cs, newReplicaSet("web", 0))
	other := newReplicaSet("other", 0)
	other.Spec.Selector.MatchLabels = map[string]string{"app": "other"}
	other.Spec.Template.Labels = map[string]string{"app": "other"}
	other = createRS(t, e.cs, other)
	waitCached(t, e.mgr, web, false)
	waitCached(t, e.mgr, other, false)
	h, exp, q := e.r.PodEventHandler(), e.r.Expectations(), &recordingQueue{}
	ctx := context.Background()

	owned := func(name string) *corev1.Pod {
		return createOwnedPod(t, e.cs, name, web)
	}
	a, b := owned("a"), owned("b")
	exp.ExpectDeletions("default/web", []string{a.UID, b.UID})
	a1 := deleteGracefully(t, e.cs, a)
	h.Update(ctx, event.UpdateEvent{ObjectOld: a, ObjectNew: a1}, q)
	assert.Equal(t, []string{"default/web"}, q.take())
	assert.False(t, exp.Satisfied("default/web"), "b is still expected")
	h.Delete(ctx, event.DeleteEvent{Object: a1}, q) // the final delete
	assert.False(t, exp.Satisfied("default/web"), "a's final delete is not a second deletion")
	b1 := deleteGracefully(t, e.cs, b)
	h.Update(ctx, event.UpdateEvent{ObjectOld: b, ObjectNew: b1}, q)
	assert.True(t, exp.Satisfied("default/web"), "both deletions observed")
	q.take()

	exp.ExpectCreations("default/web", 1)
	c1 := deleteGracefully(t, e.cs, owned("c"))
	h.Create(ctx, event.CreateEvent{Object: c1}, q)
	assert.False(t, exp.Satisfied("default/web"), "a pod first seen terminating is no creation")
	d := owned("d")
	h.Create(ctx, event.CreateEvent{Object: d}, q)
	assert.True(t, exp.Satisfied("default/web"), "d's creation observed")
	assert.Equal(t, []string{"default/web", "default/web"}, q.take())

	orphan := createPod(t, e.cs, "orphan", "", map[string]string{"app": "other"})
	h.Create(ctx, event.CreateEvent{Object: orphan}, q)
	assert.Equal(t, []string{"default/other"}, q.take(), "an orphan wakes the ReplicaSets that match it")
	h.Create(ctx, event.CreateEvent{Object: createPod(t, e.cs, "lonely", "", map[string]string{"app": "none"})}, q)
	assert.Empty(t, q.take(), "nor any other")

	relabelled := orphan.DeepCopy()
	relabelled.Labels = webLabels
	relabelled.ResourceVersion += "0"
	h.Update(ctx, event.UpdateEvent{ObjectOld: orphan, ObjectNew: relabelled}, q)
	assert.Equal(t, []string{"default/web"}, q.take(), "a relabelled orphan wakes its new match")
	h.Update(ctx, event.UpdateEvent{ObjectOld: orphan, ObjectNew: orphan}, q)
	assert.Empty(t, q.take(), "a resync changes nothing")

	moved := d.DeepCopy()
	moved.OwnerReferences = []metav1.OwnerReference{controllerref.NewControllerRef(&other.ObjectMeta, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}
	moved.ResourceVersion += "0"
	h.Update(ctx, event.UpdateEvent{ObjectOld: d, ObjectNew: moved}, q)
	assert.ElementsMatch(t, []string{"default/web", "default/other"}, q.take(), "old and new controller")
}

// createOwnedPod creates a pod name on node-1 (so deleting it is
// graceful) controlled by rs.
func createOwnedPod(t *testing.T, cs *client.Clientset, name string, rs *appsv1.ReplicaSet) *corev1.Pod {
	t.Helper()
	p, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: rs.Spec.Template.Labels, OwnerReferences: []metav1.OwnerReference{
			controllerref.NewControllerRef(&rs.ObjectMeta, appsv1.SchemeGroupVersion.WithKind("ReplicaSet")),
		}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
	return p
}

// deleteGracefully deletes the pod p, which is bound to a node, and
// returns it as it then is: with a deletionTimestamp.
func deleteGracefully(t *testing.T, cs *client.Clientset, p *corev1.Pod) *corev1.Pod {
	t.Helper()
	require.NoError(t, cs.Pods("default").Delete(t.Context(), p.Name, metav1.DeleteOptions{}), "delete %s", p.Name)
	out, err := cs.Pods("default").Get(t.Context(), p.Name, client.GetOptions{})
	require.NoError(t, err, "%s is terminating", p.Name)
	require.NotNil(t, out.DeletionTimestamp, "%s is terminating", p.Name)
	return out
}
