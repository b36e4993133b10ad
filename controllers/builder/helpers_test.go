package builder_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

// newClient starts an API server on a fresh etcd prefix and returns a
// client that reaches it in memory.
func newClient(t *testing.T) *client.Client {
	t.Helper()
	return clustertest.InMemoryClient(t, apiservertest.New(t))
}

func newClientset(t *testing.T, c *client.Client) *client.Clientset {
	t.Helper()
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	return cs
}

func newManager(t *testing.T, c *client.Client, mutate ...func(*manager.Options)) *manager.Manager {
	t.Helper()
	opts := manager.Options{Client: c}
	for _, m := range mutate {
		m(&opts)
	}
	mgr, err := manager.New(opts)
	require.NoError(t, err, "manager.New")
	return mgr
}

// start runs mgr until the test ends; the cleanup checks it stops cleanly.
func start(t *testing.T, mgr *manager.Manager) {
	t.Helper()
	clustertest.Start(t, mgr)
}

func req(ns, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}}
}

// requests is a Reconciler that reports every Request it is called with
// on a channel, counts them, and answers with next (nil: Result{}).
type requests struct {
	ch   chan reconcile.Request
	next func(ctx context.Context, req reconcile.Request) (reconcile.Result, error)

	mu    sync.Mutex
	calls map[reconcile.Request]int
}

func newRequests(next func(context.Context, reconcile.Request) (reconcile.Result, error)) *requests {
	return &requests{ch: make(chan reconcile.Request, 1000), next: next, calls: map[reconcile.Request]int{}}
}

func (r *requests) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := reconcile.Result{}, error(nil)
	if r.next != nil {
		res, err = r.next(ctx, req)
	}
	r.mu.Lock()
	r.calls[req]++
	r.mu.Unlock()
	r.ch <- req
	return res, err
}

func (r *requests) count(req reconcile.Request) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[req]
}

// drain forgets the Requests reported so far, so the next waitFor waits
// for a new reconcile.
func (r *requests) drain() {
	for {
		select {
		case <-r.ch:
		default:
			return
		}
	}
}

// waitFor waits until want is reconciled.
func (r *requests) waitFor(t *testing.T, want reconcile.Request) {
	t.Helper()
	clustertest.ReceiveUntil(t, r.ch, want.String()+" reconciled", func(got reconcile.Request) bool { return got == want })
}

func newPod(name string, labels map[string]string, owners ...metav1.OwnerReference) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: labels, OwnerReferences: owners},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
}

func createPod(t *testing.T, cs *client.Clientset, p *corev1.Pod) *corev1.Pod {
	t.Helper()
	created, err := cs.Pods("default").Create(t.Context(), p, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", p.Name)
	return created
}

func createNode(t *testing.T, cs *client.Clientset, name string) *corev1.Node {
	t.Helper()
	n, err := cs.Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}, client.WriteOptions{})
	require.NoError(t, err, "create node %s", name)
	return n
}

// controllerRef is an ownerReference naming node as the controller (or,
// with controller false, as an owner only).
func controllerRef(node *corev1.Node, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: &controller}
}

func podNames(n int) []string {
	out := make([]string, n)
	for i := range n {
		out[i] = fmt.Sprintf("pod-%d", i)
	}
	return out
}
