package watchcache_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// colorIndex indexes widgets by spec.color.
func colorIndex(obj runtime.Object) ([]string, error) {
	return []string{obj.(*storagetest.Widget).Spec.Color}, nil
}

// waitSeen waits until the Cacher has seen revision rv.
func waitSeen(t testing.TB, c *watchcache.Cacher, rv int64) {
	t.Helper()
	_, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{ResourceVersion: rvString(rv), Recursive: true,
		Predicate: storage.Predicate{Limit: 1}})
	require.NoError(t, err, "wait for the cache to reach %d", rv)
}

// TestWatchOlderThanWindow: a watch from a revision the window has
// evicted gets 410 Expired, one from the window's first revision gets
// exactly the events after it.
func TestWatchOlderThanWindow(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store, Capacity: 3})
	var written []*storagetest.Widget
	written = append(written, create(t, store, newWidget("ns", "w", "red", nil)))
	for range 5 {
		written = append(written, update(t, store, "ns", "w", func(w *storagetest.Widget) { w.Spec.Counter++ }))
	}
	waitSeen(t, c, rvOf(t, written[5]))

	// The window holds the last 3 events (written[3:]), so it starts
	// after written[2].
	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: written[2].ResourceVersion})
	for _, want := range written[3:] {
		assert.Equal(t, want, expectEvent(t, w, watch.Modified, "ns", "w"), "event after the window's start")
	}

	old := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: written[1].ResourceVersion})
	ev := nextEvent(t, old)
	require.Equal(t, watch.Error, ev.Type, "watch from %s, evicted from the window", written[1].ResourceVersion)
	status, ok := ev.Object.(*metav1.Status)
	require.True(t, ok, "Error event object is a %T", ev.Object)
	assert.Equal(t, int32(http.StatusGone), status.Code, "status code")
	assert.Equal(t, metav1.StatusReasonExpired, status.Reason, "status reason")
	assert.Contains(t, status.Message, "too old resource version", "status message")
	assert.Empty(t, expectClosed(t, old), "the Error is the only event")
}

// TestWatchNamespaceScoped: a recursive watch of one namespace sees its
// objects only, in the initial events and after; "ab" is not under "a".
func TestWatchNamespaceScoped(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	for _, ns := range []string{"a", "ab", "b"} {
		create(t, store, newWidget(ns, "x", "red", nil))
	}
	last := create(t, store, newWidget("a", "y", "red", nil))
	waitSeen(t, c, rvOf(t, last))

	w := startWatch(t, c, widgetPrefix+"/a", storage.ListOptions{Recursive: true})
	expectEvent(t, w, watch.Added, "a", "x")
	expectEvent(t, w, watch.Added, "a", "y")
	for _, ns := range []string{"ab", "b"} {
		update(t, store, ns, "x", func(w *storagetest.Widget) { w.Spec.Counter++ })
	}
	fence := update(t, store, "a", "y", func(w *storagetest.Widget) { w.Spec.Counter++ })
	assert.Equal(t, fence, expectEvent(t, w, watch.Modified, "a", "y"), "no event from other namespaces")
}

// TestWatchIndexedFieldTransitions: a watch whose field selector pins an
// indexed field sees an object entering it as ADDED and leaving it as
// DELETED, carrying its last matching state at the revision of the change.
func TestWatchIndexedFieldTransitions(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store, Indexers: map[string]watchcache.IndexFunc{"spec.color": colorIndex}})
	setup := create(t, store, newWidget("ns", "setup", "red", nil))
	waitSeen(t, c, rvOf(t, setup))
	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: setup.ResourceVersion,
		Predicate: storage.Predicate{Field: fields.OneTermEqualSelector("spec.color", "blue")}})

	create(t, store, newWidget("ns", "x", "red", nil))
	entered := update(t, store, "ns", "x", func(w *storagetest.Widget) { w.Spec.Color = "blue" })
	changed := update(t, store, "ns", "x", func(w *storagetest.Widget) { w.Spec.Counter++ })
	left := update(t, store, "ns", "x", func(w *storagetest.Widget) { w.Spec.Color = "green" })
	fence := create(t, store, newWidget("ns", "fence", "blue", nil))

	assert.Equal(t, entered, expectEvent(t, w, watch.Added, "ns", "x"), "entering the selector")
	assert.Equal(t, changed, expectEvent(t, w, watch.Modified, "ns", "x"), "changing inside it")
	gone := expectEvent(t, w, watch.Deleted, "ns", "x")
	assert.Equal(t, "blue", gone.Spec.Color, "DELETED for leaving carries the last matching state")
	assert.Equal(t, left.ResourceVersion, gone.ResourceVersion, "at the revision of the change")
	assert.Equal(t, fence, expectEvent(t, w, watch.Added, "ns", "fence"), "nothing for changes outside the selector")
}

// TestWatchNewerThanCache: a watch from a revision the cache has not
// reached waits for it, and after the bound gets ErrTooLargeResourceVersion.
func TestWatchNewerThanCache(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	f := newFakeStorage(10)
	c, fw := startFake(t, f, watchcache.Options{Clock: fc, RequestClock: fc})

	type result struct {
		w   watch.Interface
		err error
	}
	caughtUp := make(chan result, 1)
	go func() {
		w, err := c.Watch(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "12"})
		caughtUp <- result{w, err}
	}()
	// The dispatcher's ticker, and the wait's bound.
	require.NoError(t, fc.BlockUntilWaiters(waitCtx(t), 2), "the watch waits for the cache")
	fw.send(t, watch.Added, at(11, "ns", "a", "red"))
	fw.send(t, watch.Added, at(12, "ns", "b", "red"))
	got := <-caughtUp
	require.NoError(t, got.err, "Watch from 12 once the cache reached it")
	t.Cleanup(got.w.Stop)
	fw.send(t, watch.Added, at(13, "ns", "c", "red"))
	expectEvent(t, got.w, watch.Added, "ns", "c")

	tooLarge := make(chan error, 1)
	go func() {
		_, err := c.Watch(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "100"})
		tooLarge <- err
	}()
	require.NoError(t, fc.BlockUntilWaiters(waitCtx(t), 2), "the watch waits for the cache")
	fc.Step(3 * time.Second)
	err := <-tooLarge
	require.ErrorIs(t, err, storage.ErrTooLargeResourceVersion, "Watch from 100 after the bound")
	assert.Contains(t, err.Error(), "Too large resource version: 100, current: 13", "error detail")
}

// TestRequestsWaitForSync: before its first list, the cache makes
// requests wait (bounded by their ctx) instead of answering from nothing;
// reads it delegates do not wait.
func TestRequestsWaitForSync(t *testing.T) {
	store := newStore(t)
	created := create(t, store, newWidget("ns", "w", "red", nil))
	c, err := watchcache.New(watchcache.Options{Storage: store, ResourcePrefix: widgetPrefix, NewFunc: storagetest.NewWidget})
	require.NoError(t, err, "New")

	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Watch(canceled, widgetPrefix, storage.ListOptions{Recursive: true})
	assert.ErrorIs(t, err, context.Canceled, "Watch before sync with a canceled ctx")
	_, err = c.GetList(canceled, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	assert.ErrorIs(t, err, context.Canceled, "GetList rv=0 before sync with a canceled ctx")
	select {
	case <-c.Ready():
		t.Fatal("Ready closed before Start")
	default:
	}
	got, err := c.Get(waitCtx(t), widgetKey("ns", "w"), storage.GetOptions{})
	require.NoError(t, err, "Get rv=\"\" goes to storage, before sync too")
	assert.Equal(t, created, got, "Get from storage")

	listed := make(chan []string, 1)
	go func() {
		res, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
		if !assert.NoError(t, err, "GetList rv=0 waiting for sync") {
			listed <- nil
			return
		}
		listed <- names(t, res.Items)
	}()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		stop()
		require.NoError(t, <-done, "Start")
	})
	select {
	case got := <-listed:
		assert.Equal(t, []string{"ns/w"}, got, "the waiting list is served once the cache synced")
	case <-waitCtx(t).Done():
		t.Fatal("the waiting list was not served")
	}
	<-c.Ready()
}

// TestStoppedCacher: stopping the Cacher closes its watches, and later
// requests served from the cache fail with ErrStopped.
func TestStoppedCacher(t *testing.T) {
	store := newStore(t)
	c, err := watchcache.New(watchcache.Options{Storage: store, ResourcePrefix: widgetPrefix, NewFunc: storagetest.NewWidget})
	require.NoError(t, err, "New")
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	require.NoError(t, c.WaitReady(waitCtx(t)), "WaitReady")
	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})

	stop()
	require.NoError(t, <-done, "Start returns once stopped")
	assert.Empty(t, expectClosed(t, w), "a watch ends when the Cacher stops")
	_, err = c.Watch(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true})
	assert.True(t, errors.Is(err, watchcache.ErrStopped), "Watch after stop: %v", err)
	_, err = c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	assert.ErrorIs(t, err, watchcache.ErrStopped, "GetList rv=0 after stop")
	assert.ErrorIs(t, c.WaitReady(waitCtx(t)), watchcache.ErrStopped, "WaitReady after stop")
}

// TestWatchOutsidePrefix: a watch of another resource's keys is an
// invalid key, not an empty watch.
func TestWatchOutsidePrefix(t *testing.T) {
	c := startCacher(t, watchcache.Options{})
	_, err := c.Watch(waitCtx(t), "/gadgets", storage.ListOptions{Recursive: true})
	assert.ErrorIs(t, err, storage.ErrInvalidKey, "Watch(/gadgets) of a /widgets cache")
	_, err = c.Watch(waitCtx(t), "/widgetsx", storage.ListOptions{Recursive: true})
	assert.ErrorIs(t, err, storage.ErrInvalidKey, "Watch(/widgetsx) of a /widgets cache")
}
