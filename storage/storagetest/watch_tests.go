package storagetest

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
)

// testWatchFromOldRevision writes first and watches after: a watch from
// an old revision replays every later event, in order.
func testWatchFromOldRevision(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	start := create(ctx, t, s, newWidget("ns", "w", "red", nil))
	key := widgetKey("ns", "w")
	var updates []*Widget
	for range 3 {
		updates = append(updates, update(ctx, t, s, key, func(w *Widget) { w.Spec.Counter++ }))
	}
	other := create(ctx, t, s, newWidget("ns", "other", "red", nil))
	deleted := del(ctx, t, s, key)

	w := startWatch(ctx, t, s, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: start.ResourceVersion})
	for i, want := range updates {
		got := expectEvent(t, w, watch.Modified, "ns", "w")
		assert.Equal(t, want, got, "MODIFIED event %d", i)
	}
	assert.Equal(t, other, expectEvent(t, w, watch.Added, "ns", "other"), "ADDED event")
	assert.Equal(t, deleted, expectEvent(t, w, watch.Deleted, "ns", "w"), "DELETED event: the last state at the delete's resourceVersion")

	later := update(ctx, t, s, widgetKey("ns", "other"), func(w *Widget) { w.Spec.Color = "blue" })
	assert.Equal(t, later, expectEvent(t, w, watch.Modified, "ns", "other"), "event after the watch started")
}

func testWatchInitialEvents(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	var existing []string
	for _, name := range []string{"a", "b", "c"} {
		create(ctx, t, s, newWidget("ns", name, "red", nil))
		existing = append(existing, "ns/"+name)
	}
	create(ctx, t, s, newWidget("elsewhere", "x", "red", nil))
	for _, rv := range []string{"", "0"} {
		t.Run(fmt.Sprintf("rv=%q", rv), func(t *testing.T) {
			w := startWatch(ctx, t, s, "/widgets/ns", storage.ListOptions{Recursive: true, ResourceVersion: rv})
			var got []string
			for range existing {
				ev := nextEvent(t, w)
				require.Equal(t, watch.Added, ev.Type, "initial event type (object %+v)", ev.Object)
				o := asWidget(t, ev.Object)
				got = append(got, o.Namespace+"/"+o.Name)
			}
			assert.ElementsMatch(t, existing, got, "initial ADDED events of a watch from %q", rv)
			fence := update(ctx, t, s, widgetKey("ns", "a"), func(w *Widget) { w.Spec.Counter++ })
			assert.Equal(t, fence, expectEvent(t, w, watch.Modified, "ns", "a"), "first event after the initial ones")
		})
	}
}

// testWatchSelectorTransitions moves an object into and out of a label
// selector: entering is ADDED, leaving is DELETED, changes outside it are
// not sent at all.
func testWatchSelectorTransitions(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	setup := create(ctx, t, s, newWidget("ns", "setup", "red", nil))
	web := labels.Set{"app": "web"}
	w := startWatch(ctx, t, s, "/widgets", storage.ListOptions{
		Recursive: true, ResourceVersion: setup.ResourceVersion, Predicate: storage.Predicate{Label: labels.SelectorFromSet(web)},
	})
	key := widgetKey("ns", "x")
	create(ctx, t, s, newWidget("ns", "x", "red", map[string]string{"app": "db"}))
	entered := update(ctx, t, s, key, func(w *Widget) { w.Labels = web })
	changed := update(ctx, t, s, key, func(w *Widget) { w.Spec.Color = "blue" })
	left := update(ctx, t, s, key, func(w *Widget) { w.Labels = map[string]string{"app": "db"} })
	del(ctx, t, s, key)
	fence := create(ctx, t, s, newWidget("ns", "fence", "red", web))

	assert.Equal(t, entered, expectEvent(t, w, watch.Added, "ns", "x"), "object entering the selector")
	assert.Equal(t, changed, expectEvent(t, w, watch.Modified, "ns", "x"), "object changing inside the selector")
	gone := expectEvent(t, w, watch.Deleted, "ns", "x")
	assert.Equal(t, map[string]string(web), gone.Labels, "DELETED for leaving the selector carries the last matching state")
	assert.Equal(t, left.ResourceVersion, gone.ResourceVersion, "DELETED for leaving carries the revision of the change")
	assert.Equal(t, fence, expectEvent(t, w, watch.Added, "ns", "fence"), "no event for changes outside the selector")
}

func testWatchSingleKey(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	created := create(ctx, t, s, newWidget("ns", "a", "red", nil))
	w := startWatch(ctx, t, s, widgetKey("ns", "a"), storage.ListOptions{ResourceVersion: created.ResourceVersion})
	create(ctx, t, s, newWidget("ns", "ab", "red", nil))
	create(ctx, t, s, newWidget("ns", "b", "red", nil))
	updated := update(ctx, t, s, widgetKey("ns", "a"), func(w *Widget) { w.Spec.Counter++ })
	assert.Equal(t, updated, expectEvent(t, w, watch.Modified, "ns", "a"), "only the watched key's events")
}

func testWatchCompacted(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	created := create(ctx, t, s, newWidget("ns", "w", "red", nil))
	var latest *Widget
	for range 2 {
		latest = update(ctx, t, s, widgetKey("ns", "w"), func(w *Widget) { w.Spec.Counter++ })
	}
	Compact(t, Client(t), rv(t, latest))

	w, err := s.Watch(ctx, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: created.ResourceVersion})
	if err != nil {
		// Allowed: an implementation that knows up front says so directly.
		require.ErrorIs(t, err, storage.ErrExpired, "Watch from compacted revision %s", created.ResourceVersion)
		return
	}
	defer w.Stop()
	ev := nextEvent(t, w)
	require.Equal(t, watch.Error, ev.Type, "event of a watch from compacted revision %s", created.ResourceVersion)
	status, ok := ev.Object.(*metav1.Status)
	require.True(t, ok, "Error event object is a %T, not a *metav1.Status", ev.Object)
	assert.Equal(t, int32(http.StatusGone), status.Code, "status code")
	assert.Equal(t, metav1.StatusReasonExpired, status.Reason, "status reason")
	assert.Contains(t, status.Message, "too old resource version", "status message")
	expectClosed(t, w)
}

func testWatchStop(t *testing.T, s storage.Interface) {
	t.Run("Stop", func(t *testing.T) {
		w, err := s.Watch(t.Context(), "/widgets", storage.ListOptions{Recursive: true})
		require.NoError(t, err, "Watch")
		var wg sync.WaitGroup
		// Stop is idempotent and safe from several goroutines at once.
		for range 3 {
			wg.Go(w.Stop)
		}
		wg.Wait()
		expectClosed(t, w)
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		w, err := s.Watch(ctx, "/widgets", storage.ListOptions{Recursive: true})
		require.NoError(t, err, "Watch")
		defer w.Stop()
		cancel()
		expectClosed(t, w)
	})
}

// testConcurrentUpdates races 20 writers of 10 increments each on one
// object: optimistic concurrency must apply all 200, and a watch that
// started before them (and is not read until they finish, so its buffer
// overflows and its producer must wait) sees all 200 in order.
func testConcurrentUpdates(t *testing.T, s storage.Interface) {
	const writers, updatesEach = 20, 10
	ctx := t.Context()
	created := create(ctx, t, s, newWidget("ns", "counter", "red", nil))
	key := widgetKey("ns", "counter")
	w := startWatch(ctx, t, s, key, storage.ListOptions{ResourceVersion: created.ResourceVersion})

	errs := make(chan error, writers*updatesEach)
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range updatesEach {
				_, err := s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) {
					cur.(*Widget).Spec.Counter++
					return cur, nil
				})
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err, "GuaranteedUpdate(%q) by a concurrent writer", key)
	}
	final, err := s.Get(ctx, key, storage.GetOptions{})
	require.NoError(t, err, "Get(%q)", key)
	require.Equal(t, int64(writers*updatesEach), asWidget(t, final).Spec.Counter, "counter after %d increments", writers*updatesEach)

	prevRV := rv(t, created)
	for i := range writers * updatesEach {
		got := expectEvent(t, w, watch.Modified, "ns", "counter")
		require.Equal(t, int64(i+1), got.Spec.Counter, "counter of MODIFIED event %d", i)
		require.Greater(t, rv(t, got), prevRV, "resourceVersion of MODIFIED event %d", i)
		prevRV = rv(t, got)
	}
	assert.Equal(t, final.(*Widget).ResourceVersion, rvString(prevRV), "last event is the final state")
}
