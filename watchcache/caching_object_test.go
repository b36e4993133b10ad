package watchcache_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// startCachingWatch starts a watch that asks for cacheable objects
// (storage.WithCacheableObjects) and that the test's end stops.
func startCachingWatch(t *testing.T, c *watchcache.Cacher, opts storage.ListOptions) watch.Interface {
	t.Helper()
	w, err := c.Watch(storage.WithCacheableObjects(context.Background()), widgetPrefix, opts)
	require.NoError(t, err, "Watch(WithCacheableObjects)")
	t.Cleanup(w.Stop)
	return w
}

// cachingObject waits for w's next event, of type typ, and returns its
// object, which must be a runtime.CacheableObject.
func cachingObject(t *testing.T, w watch.Interface, typ watch.EventType) runtime.CacheableObject {
	t.Helper()
	ev := nextEvent(t, w)
	require.Equal(t, typ, ev.Type, "event type")
	co, ok := ev.Object.(runtime.CacheableObject)
	require.True(t, ok, "%s event object is a %T, want a runtime.CacheableObject", typ, ev.Object)
	return co
}

// TestCachingObjectsAreSharedPerEvent: the watchers an event is dispatched
// to share one CachingObject, which encodes once; watchers that did not
// ask get the object itself, the same one.
func TestCachingObjectsAreSharedPerEvent(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	opts := storage.ListOptions{Recursive: true, ResourceVersion: "0"}
	a, b := startCachingWatch(t, c, opts), startCachingWatch(t, c, opts)
	plain := startWatch(t, c, widgetPrefix, opts)

	created := create(t, store, newWidget("ns", "w", "red", nil))
	coA, coB := cachingObject(t, a, watch.Added), cachingObject(t, b, watch.Added)
	assert.Same(t, coA, coB, "both watchers get the event's one CachingObject")
	assert.Equal(t, created, coA.GetObject(), "the CachingObject wraps the event's object")
	obj := expectEvent(t, plain, watch.Added, "ns", "w")
	assert.Same(t, coA.GetObject(), runtime.Object(obj), "a watcher that did not ask gets the same object, unwrapped")

	var encodes atomic.Int32
	encode := func(obj runtime.Object) ([]byte, error) {
		encodes.Add(1)
		return json.Marshal(obj)
	}
	dataA, err := coA.CacheEncode("json", encode)
	require.NoError(t, err, "CacheEncode by watcher a")
	dataB, err := coB.CacheEncode("json", encode)
	require.NoError(t, err, "CacheEncode by watcher b")
	assert.Equal(t, int32(1), encodes.Load(), "encoded once for both watchers")
	other, err := coB.CacheEncode("other", func(runtime.Object) ([]byte, error) {
		encodes.Add(1)
		return []byte("other"), nil
	})
	require.NoError(t, err, "CacheEncode of another format")
	assert.Equal(t, "other", string(other), "another format is encoded on its own")
	assert.Equal(t, int32(2), encodes.Load(), "once per format")
	assert.Equal(t, string(dataA), string(dataB), "both watchers get the same bytes")
	want, _ := json.Marshal(created)
	assert.JSONEq(t, string(want), string(dataA), "the bytes are the object's JSON")

	// The next event gets a CachingObject of its own.
	update(t, store, "ns", "w", func(w *storagetest.Widget) { w.Spec.Counter++ })
	next := cachingObject(t, a, watch.Modified)
	assert.NotSame(t, coA, next, "each event has its own CachingObject")
}

// TestCachingObjectsOfInitialAndLeavingEvents: initial events carry the
// objects themselves (no other watcher shares them); the DELETED event of
// an object leaving a watcher's selector carries a CachingObject of its
// last matching state at the change's resourceVersion.
func TestCachingObjectsOfInitialAndLeavingEvents(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	existing := create(t, store, newWidget("ns", "w", "red", map[string]string{"app": "web"}))
	waitSeen(t, c, rvOf(t, existing))

	sel, err := labels.Parse("app=web")
	require.NoError(t, err, "labels.Parse")
	w := startCachingWatch(t, c, storage.ListOptions{Recursive: true, ResourceVersion: "0", Predicate: storage.Predicate{Label: sel}})
	initial := nextEvent(t, w)
	require.Equal(t, watch.Added, initial.Type, "initial event type")
	assert.Equal(t, existing, initial.Object, "the initial event carries the object itself")

	left := update(t, store, "ns", "w", func(w *storagetest.Widget) { w.Labels = nil })
	co := cachingObject(t, w, watch.Deleted)
	got, ok := co.GetObject().(*storagetest.Widget)
	require.True(t, ok, "DELETED object is a %T", co.GetObject())
	assert.Equal(t, map[string]string{"app": "web"}, got.Labels, "the last state that matched")
	assert.Equal(t, left.ResourceVersion, got.ResourceVersion, "at the resourceVersion of the change")
}
