package informer_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/informer"
)

// TestHandlerOrderingPerObject checks that a handler sees every change of
// an object in order, and that a slow handler delays only itself.
func TestHandlerOrderingPerObject(t *testing.T) {
	cs := inMemoryClientset(t)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	fast, slow := newRecorder(), newRecorder()
	slow.gate = make(chan struct{})
	_, err := inf.AddEventHandler(fast, informer.HandlerOptions{})
	require.NoError(t, err)
	_, err = inf.AddEventHandler(slow, informer.HandlerOptions{})
	require.NoError(t, err)
	// Release the slow handler at the end, so the informer can stop.
	t.Cleanup(func() { close(slow.gate) })
	run(t, inf)

	ctx := t.Context()
	var want []string
	for _, name := range []string{"a", "b"} {
		p := createPod(t, cs, name, nil)
		want = append(want, "add "+name)
		rv := p.ResourceVersion
		for i := range 3 {
			p, err = cs.Pods("default").Patch(ctx, name, client.MergePatchType,
				fmt.Appendf(nil, `{"metadata":{"labels":{"n":"%d"}}}`, i), client.WriteOptions{})
			require.NoError(t, err)
			want = append(want, fmt.Sprintf("update %s %s->%s", name, rv, p.ResourceVersion))
			rv = p.ResourceVersion
		}
	}
	require.NoError(t, cs.Pods("default").Delete(ctx, "a", metav1.DeleteOptions{}))
	want = append(want, "delete a")

	assert.Equal(t, want, fast.nextN(t, len(want)), "the fast handler is not held up by the slow one")
	for range want {
		slow.gate <- struct{}{}
	}
	assert.Equal(t, want, slow.nextN(t, len(want)), "the slow handler sees the same, in order")
	assertMatchesServer(t, cs, inf)
}

// TestHandlerAddedLateGetsCurrentState checks that a handler added to a
// running informer first receives the objects the informer holds.
func TestHandlerAddedLateGetsCurrentState(t *testing.T) {
	cs := inMemoryClientset(t)
	createPod(t, cs, "a", nil)
	createPod(t, cs, "b", nil)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	early := newRecorder()
	earlyReg, err := inf.AddEventHandler(early, informer.HandlerOptions{})
	require.NoError(t, err)
	run(t, inf)
	assert.ElementsMatch(t, []string{"add a initial", "add b initial"}, early.nextN(t, 2))

	late := newRecorder()
	lateReg, err := inf.AddEventHandler(late, informer.HandlerOptions{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"add a initial", "add b initial"}, late.nextN(t, 2),
		"the late handler gets the current state first")
	createPod(t, cs, "c", nil)
	assert.Equal(t, "add c", late.next(t), "then the changes")
	assert.Equal(t, "add c", early.next(t))
	assert.True(t, earlyReg.HasSynced())
	assert.True(t, lateReg.HasSynced())

	require.NoError(t, inf.RemoveEventHandler(lateReg))
	require.NoError(t, inf.RemoveEventHandler(lateReg), "removing twice is a no-op")
	createPod(t, cs, "d", nil)
	assert.Equal(t, "add d", early.next(t))
	assert.True(t, late.empty(), "a removed handler hears nothing more")
}

func TestListerReadsTheCache(t *testing.T) {
	cs := inMemoryClientset(t)
	createPod(t, cs, "web-1", map[string]string{"app": "web"})
	createPod(t, cs, "web-2", map[string]string{"app": "web"})
	createPod(t, cs, "db-1", map[string]string{"app": "db"})
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	run(t, inf)

	lister := informer.NewLister[*corev1.Pod](inf.Indexer(), podsGVR.GroupResource())
	web, err := lister.List(mustSelector(t, "app=web"))
	require.NoError(t, err)
	assert.Len(t, web, 2)
	all, err := lister.ByNamespace("default").List(nil)
	require.NoError(t, err)
	assert.Len(t, all, 3)
	none, err := lister.ByNamespace("other").List(nil)
	require.NoError(t, err)
	assert.Empty(t, none)

	p, err := lister.ByNamespace("default").Get("db-1")
	require.NoError(t, err)
	assert.Equal(t, "db", p.Labels["app"])
	_, err = lister.Get("default", "missing")
	assert.ErrorContains(t, err, `pods "missing" not found`)

	wrong := informer.NewLister[*corev1.Node](inf.Indexer(), podsGVR.GroupResource())
	_, err = wrong.List(nil)
	assert.Error(t, err, "a Node lister over pods")
}

func TestCustomIndexer(t *testing.T) {
	cs := inMemoryClientset(t)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{Indexers: informer.Indexers{
		"app": func(obj runtime.Object) ([]string, error) {
			return []string{asPod(obj).Labels["app"]}, nil
		},
	}})
	rec := newRecorder()
	_, err := inf.AddEventHandler(rec, informer.HandlerOptions{})
	require.NoError(t, err)
	run(t, inf)
	createPod(t, cs, "w", map[string]string{"app": "web"})
	rec.next(t)
	keys, err := inf.Indexer().IndexKeys("app", "web")
	require.NoError(t, err)
	assert.Equal(t, []string{"default/w"}, keys)
}

func TestInformerStartTwiceAndAfterStop(t *testing.T) {
	cs := inMemoryClientset(t)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	run(t, inf)
	assert.ErrorContains(t, inf.Start(t.Context()), "already started")
	assert.NotEmpty(t, inf.LastSyncResourceVersion())
}
