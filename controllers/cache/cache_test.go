package cache_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/cache"
)

func newClient(t *testing.T) *client.Client {
	t.Helper()
	return clustertest.InMemoryClient(t, apiservertest.New(t))
}

func TestListerFor(t *testing.T) {
	c := newClient(t)
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	_, err = cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)

	ca, err := cache.New(cache.Options{Client: c})
	require.NoError(t, err)
	pods, err := cache.ListerFor[*corev1.Pod](ca)
	require.NoError(t, err, "ListerFor[*corev1.Pod]")
	assert.False(t, ca.HasSynced(), "not synced before Start")

	running := clustertest.Start(t, ca)
	waitCtx, waitCancel := clustertest.WaitContext(t)
	defer waitCancel()
	require.NoError(t, ca.WaitForCacheSync(waitCtx))
	assert.True(t, ca.HasSynced())

	p, err := pods.Get("default", "web")
	require.NoError(t, err, "the lister reads the synced informer")
	assert.Equal(t, "web", p.Name)
	inf, err := ca.GetInformer(&corev1.Pod{})
	require.NoError(t, err)
	same, err := ca.InformerFor(corev1.SchemeGroupVersion.WithResource("pods"))
	require.NoError(t, err)
	assert.Same(t, inf, same, "one informer per resource")

	running.Stop()
}

func TestResourceFor(t *testing.T) {
	ca, err := cache.New(cache.Options{Client: newClient(t)})
	require.NoError(t, err)
	info, err := ca.ResourceFor(&corev1.Node{})
	require.NoError(t, err)
	assert.Equal(t, "nodes", info.GVR.Resource)
	assert.False(t, info.Namespaced)
	info, err = ca.ResourceFor((*corev1.Pod)(nil))
	require.NoError(t, err, "a typed nil is a prototype too")
	assert.Equal(t, "pods", info.GVR.Resource)

	_, err = ca.ResourceFor(nil)
	assert.Error(t, err)
	_, err = ca.ResourceFor(&metav1.Status{})
	assert.Error(t, err, "a kind without a resource")
	_, err = cache.ListerFor[metav1.Object](ca)
	assert.Error(t, err, "ListerFor needs a concrete type")
	_, err = cache.New(cache.Options{})
	assert.Error(t, err, "Client is required")
}
