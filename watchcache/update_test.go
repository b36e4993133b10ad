package watchcache_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// suggestionRecorder is an underlying storage that records the cached
// copy each GuaranteedUpdate is given.
type suggestionRecorder struct {
	storage.Interface

	// mu guards suggested.
	mu        sync.Mutex
	suggested []suggestion
}

// suggestion is one GuaranteedUpdate's cached copy: the object given, and
// a snapshot of it taken then (storage owns the object, and modifies it).
type suggestion struct {
	given, snapshot runtime.Object
}

func (r *suggestionRecorder) GuaranteedUpdate(ctx context.Context, key string, opts storage.UpdateOptions, tryUpdate storage.UpdateFunc) (runtime.Object, error) {
	s := suggestion{given: opts.CachedExistingObject}
	if s.given != nil {
		s.snapshot = s.given.DeepCopyObject()
	}
	r.mu.Lock()
	r.suggested = append(r.suggested, s)
	r.mu.Unlock()
	return r.Interface.GuaranteedUpdate(ctx, key, opts, tryUpdate)
}

func (r *suggestionRecorder) last() suggestion {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.suggested[len(r.suggested)-1]
}

// TestGuaranteedUpdateSuggestsCachedCopy: the Cacher hands storage a copy
// of its object (never the shared one, and never the caller's), and
// nothing for a key it does not hold.
func TestGuaranteedUpdateSuggestsCachedCopy(t *testing.T) {
	rec := &suggestionRecorder{Interface: newStore(t)}
	c := readYourWrites{startCacher(t, watchcache.Options{Storage: rec})}
	created := create(t, c, newWidget("ns", "w", "red", nil))
	shared, err := c.Get(t.Context(), widgetKey("ns", "w"), storage.GetOptions{ResourceVersion: "0"})
	require.NoError(t, err, "Get(rv=0)")

	callers := newWidget("ns", "w", "green", nil)
	callers.ResourceVersion = "1"
	_, err = c.GuaranteedUpdate(t.Context(), widgetKey("ns", "w"), storage.UpdateOptions{CachedExistingObject: callers},
		func(obj runtime.Object) (runtime.Object, error) {
			obj.(*storagetest.Widget).Spec.Color = "blue"
			return obj, nil
		})
	require.NoError(t, err, "GuaranteedUpdate(ns/w)")
	suggested := rec.last()
	assert.Equal(t, created, suggested.snapshot, "storage is given the cache's state")
	assert.NotSame(t, shared, suggested.given, "storage is given a copy, not the cache's shared object")
	assert.Equal(t, created.ResourceVersion, shared.(*storagetest.Widget).ResourceVersion, "the cache's object is not modified")

	_, err = c.GuaranteedUpdate(t.Context(), widgetKey("ns", "new"), storage.UpdateOptions{IgnoreNotFound: true, CachedExistingObject: callers},
		func(runtime.Object) (runtime.Object, error) { return newWidget("ns", "new", "red", nil), nil })
	require.NoError(t, err, "GuaranteedUpdate(ns/new) upsert")
	assert.Nil(t, rec.last().given, "no copy for a key the cache does not hold")
}

// frozenWatchStore is an etcd Store whose watches never deliver: a Cacher
// over it keeps the state of its first list, however etcd moves on.
type frozenWatchStore struct {
	*storage.Store
}

func (frozenWatchStore) Watch(context.Context, string, storage.ListOptions) (watch.Interface, error) {
	return &fakeWatch{ch: make(chan watch.Event), stopCh: make(chan struct{})}, nil
}

// TestGuaranteedUpdateFromStaleCache: the cache holds an old state of the
// object; the update through the Cacher is computed from etcd's, after
// one retry, and a resourceVersion precondition is checked against etcd's.
func TestGuaranteedUpdateFromStaleCache(t *testing.T) {
	store := newStore(t)
	old := create(t, store, newWidget("ns", "w", "red", nil))
	c := startCacher(t, watchcache.Options{Storage: frozenWatchStore{store}})
	cur := update(t, store, "ns", "w", func(w *storagetest.Widget) { w.Spec.Color = "blue" })
	cached, err := c.Get(t.Context(), widgetKey("ns", "w"), storage.GetOptions{ResourceVersion: "0"})
	require.NoError(t, err, "Get(rv=0)")
	require.Equal(t, old, cached, "the cache holds the old state")

	_, err = c.GuaranteedUpdate(t.Context(), widgetKey("ns", "w"),
		storage.UpdateOptions{Preconditions: &storage.Preconditions{ResourceVersion: &old.ResourceVersion}},
		func(obj runtime.Object) (runtime.Object, error) { return obj, nil })
	require.ErrorIs(t, err, storage.ErrConflict, "GuaranteedUpdate with the old resourceVersion as precondition")

	var seen []string
	out, err := c.GuaranteedUpdate(t.Context(), widgetKey("ns", "w"),
		storage.UpdateOptions{Preconditions: &storage.Preconditions{ResourceVersion: &cur.ResourceVersion}},
		func(obj runtime.Object) (runtime.Object, error) {
			w := obj.(*storagetest.Widget)
			seen = append(seen, w.Spec.Color)
			w.Spec.Counter++
			return w, nil
		})
	require.NoError(t, err, "GuaranteedUpdate with the current resourceVersion as precondition")
	assert.Equal(t, []string{"blue"}, seen, "tryUpdate runs on etcd's state only")
	assert.Equal(t, storagetest.WidgetSpec{Color: "blue", Counter: 1}, out.(*storagetest.Widget).Spec, "written state")

	seen = nil
	out, err = c.GuaranteedUpdate(t.Context(), widgetKey("ns", "w"), storage.UpdateOptions{},
		func(obj runtime.Object) (runtime.Object, error) {
			w := obj.(*storagetest.Widget)
			seen = append(seen, w.Spec.Color)
			w.Spec.Counter++
			return w, nil
		})
	require.NoError(t, err, "GuaranteedUpdate without preconditions")
	assert.Equal(t, []string{"red", "blue"}, seen, "tryUpdate saw the cache's stale state, then etcd's: one retry")
	assert.Equal(t, storagetest.WidgetSpec{Color: "blue", Counter: 2}, out.(*storagetest.Widget).Spec, "written state")
}
