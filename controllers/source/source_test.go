package source_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
)

func newClient(t *testing.T) *client.Client {
	t.Helper()
	return clustertest.InMemoryClient(t, apiservertest.New(t))
}

// queue records the Requests added, and signals each on addedCh.
type queue struct {
	mu      sync.Mutex
	added   []reconcile.Request
	addedCh chan reconcile.Request
}

func newQueue() *queue { return &queue{addedCh: make(chan reconcile.Request, 100)} }

func (q *queue) Add(req reconcile.Request) {
	q.mu.Lock()
	q.added = append(q.added, req)
	q.mu.Unlock()
	q.addedCh <- req
}

func (q *queue) snapshot() []reconcile.Request {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]reconcile.Request(nil), q.added...)
}

// waitFor waits until want is added.
func (q *queue) waitFor(t *testing.T, want reconcile.Request) {
	t.Helper()
	clustertest.ReceiveUntil(t, q.addedCh, want.String()+" added", func(got reconcile.Request) bool { return got == want })
}

func req(ns, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}}
}

// run starts s until the test ends.
func run(t *testing.T, s source.Source, q handler.Queue) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	errCh := make(chan error, 1)
	go func() { errCh <- s.Start(ctx, q) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-errCh, "the source stops cleanly")
	})
}

func startCache(t *testing.T, c *client.Client) *cache.Cache {
	t.Helper()
	ca, err := cache.New(cache.Options{Client: c})
	require.NoError(t, err)
	clustertest.Start(t, ca)
	return ca
}

func TestKindPutsTheCacheOnTheQueueBeforeSync(t *testing.T) {
	c := newClient(t)
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	for _, name := range []string{"a", "b", "c"} {
		_, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
		}, client.WriteOptions{})
		require.NoError(t, err)
	}
	ca := startCache(t, c)
	q := newQueue()
	k := source.Kind(ca, &corev1.Pod{}, handler.EnqueueRequestForObject{})
	run(t, k, q)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, k.WaitForSync(ctx))
	assert.ElementsMatch(t, []reconcile.Request{req("default", "a"), req("default", "b"), req("default", "c")},
		q.snapshot(), "every cached object is on the queue, once, when WaitForSync returns")

	_, err = cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "d"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	q.waitFor(t, req("default", "d"))
	require.NoError(t, cs.Pods("default").Delete(t.Context(), "a", metav1.DeleteOptions{GracePeriodSeconds: new(int64(0))}))
	q.waitFor(t, req("default", "a"))
}

func TestKindRecoversHandlerPanics(t *testing.T) {
	c := newClient(t)
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	for _, name := range []string{"bad", "good"} {
		_, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
		}, client.WriteOptions{})
		require.NoError(t, err)
	}
	ca := startCache(t, c)
	q := newQueue()
	h := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, obj metav1.Object) []reconcile.Request {
		if obj.GetObjectMeta().Name == "bad" {
			panic("bad mapping")
		}
		return []reconcile.Request{req(obj.GetObjectMeta().Namespace, obj.GetObjectMeta().Name)}
	})
	k := source.Kind(ca, &corev1.Pod{}, h)
	run(t, k, q)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, k.WaitForSync(ctx), "a panicking handler does not stop the source")
	assert.Equal(t, []reconcile.Request{req("default", "good")}, q.snapshot())
}

func TestKindCaughtUp(t *testing.T) {
	c := newClient(t)
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	ca := startCache(t, c)
	q := newQueue()
	enteredCh, releaseCh := make(chan struct{}), make(chan struct{})
	h := handler.Funcs{CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
		if ev.Object.GetObjectMeta().Name == "slow" {
			close(enteredCh)
			<-releaseCh
		}
		q.Add(req(ev.Object.GetObjectMeta().Namespace, ev.Object.GetObjectMeta().Name))
	}}
	k := source.Kind(ca, &corev1.Pod{}, h)
	caughtUp, _ := k.CaughtUp()
	assert.False(t, caughtUp, "not before sync")
	run(t, k, q)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, k.WaitForSync(ctx))
	caughtUp, _ = k.CaughtUp()
	assert.True(t, caughtUp, "an empty cache, replayed")

	_, err = cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "slow"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	select {
	case <-enteredCh:
	case <-ctx.Done():
		t.Fatal("the handler was not called")
	}
	caughtUp, changed := k.CaughtUp()
	assert.False(t, caughtUp, "the informer holds a pod its handler has not handled yet")
	close(releaseCh)
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no change after the handler returned")
	}
	caughtUp, _ = k.CaughtUp()
	assert.True(t, caughtUp)
	assert.Equal(t, []reconcile.Request{req("default", "slow")}, q.snapshot(), "fed to the queue before it counts as handled")
}

// unregistered is a kind no scheme knows.
type unregistered struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (u *unregistered) DeepCopyObject() runtime.Object { return runtime.DeepCopy(u) }

func TestKindOfUnknownTypeFails(t *testing.T) {
	ca := startCache(t, newClient(t))
	k := source.Kind(ca, &unregistered{}, handler.EnqueueRequestForObject{})
	err := k.Start(t.Context(), newQueue())
	assert.Error(t, err)
	assert.Equal(t, err, k.WaitForSync(t.Context()), "WaitForSync reports Start's error")
	assert.Error(t, k.Start(t.Context(), newQueue()), "a source starts once")
}

func TestChannel(t *testing.T) {
	events := make(chan event.GenericEvent)
	q := newQueue()
	run(t, source.Channel(events, handler.EnqueueRequestForObject{}), q)
	events <- event.GenericEvent{Object: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}}
	q.waitFor(t, req("", "node-1"))
	close(events) // the sender may close it; the source waits for its stop
	assert.Error(t, source.Channel(nil, handler.EnqueueRequestForObject{}).Start(t.Context(), q))
}
