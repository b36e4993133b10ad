package informer_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/informer"
)

func TestSharedInformerFactory(t *testing.T) {
	cs := inMemoryClientset(t)
	createPod(t, cs, "a", nil)
	f, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{
		Client: cs.Client(), Namespace: "default", Backoff: &fastBackoff,
	})
	require.NoError(t, err)
	pods, err := f.InformerFor(podsGVR)
	require.NoError(t, err)
	again, err := f.InformerFor(podsGVR)
	require.NoError(t, err)
	assert.Same(t, pods, again, "one informer per resource")
	_, err = f.InformerFor(corev1.SchemeGroupVersion.WithResource("widgets"))
	assert.ErrorContains(t, err, "not in the scheme")

	clustertest.Start(t, f)
	waitCtx, waitCancel := clustertest.WaitContext(t)
	defer waitCancel()
	require.NoError(t, f.WaitForCacheSync(waitCtx))
	assert.Equal(t, []string{"default/a"}, pods.Indexer().ListKeys())

	// An informer requested after Start starts at once.
	nodes, err := f.InformerFor(corev1.SchemeGroupVersion.WithResource("nodes"))
	require.NoError(t, err)
	_, err = cs.Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, client.WriteOptions{})
	require.NoError(t, err)
	require.NoError(t, f.WaitForCacheSync(waitCtx))
	rec := newNameRecorder()
	_, err = nodes.AddEventHandler(rec, informer.HandlerOptions{})
	require.NoError(t, err)
	assert.Equal(t, "n1", rec.next(t), "the late informer lists nodes")
	assert.ErrorContains(t, f.Start(t.Context()), "already started")
}

func TestWaitForCacheSyncTimesOut(t *testing.T) {
	cs := newClientset(t, newFaultTransport(nil)) // a server that is never up
	f, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{Client: cs.Client(), Backoff: &fastBackoff})
	require.NoError(t, err)
	_, err = f.InformerFor(podsGVR)
	require.NoError(t, err)
	clustertest.Start(t, f)
	waitCtx, waitCancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer waitCancel()
	assert.ErrorIs(t, f.WaitForCacheSync(waitCtx), context.DeadlineExceeded)
}

// nameRecorder records the names of added objects of any kind.
type nameRecorder struct{ names chan string }

func newNameRecorder() *nameRecorder { return &nameRecorder{names: make(chan string, 100)} }

func (r *nameRecorder) OnAdd(obj runtime.Object, _ bool) {
	r.names <- metav1.MustAccessor(obj).Name
}
func (r *nameRecorder) OnUpdate(_, _ runtime.Object) {}
func (r *nameRecorder) OnDelete(any)                 {}

func (r *nameRecorder) next(t *testing.T) string {
	t.Helper()
	return clustertest.Receive(t, r.names, "add")
}
