package watchcache_test

import (
	"fmt"
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

// written is one write and the event it must produce.
type written struct {
	typ watch.EventType
	obj *storagetest.Widget
}

// TestConcurrentWatchersSeeEveryEventInOrder: 100 watchers read while 10
// writers race; every watcher sees every event, once, in revision order.
func TestConcurrentWatchersSeeEveryEventInOrder(t *testing.T) {
	const watchers, writers, writesEach = 100, 10, 20
	store := newStore(t)
	// A window that holds every event: a watcher that falls behind is
	// closed and must re-watch from its last revision, which this test
	// checks too.
	c := startCacher(t, watchcache.Options{Storage: store, Capacity: writers*writesEach + 1})
	start, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	require.NoError(t, err, "GetList")

	var wg sync.WaitGroup
	seen := make([][]int64, watchers)
	for i := range watchers {
		wg.Go(func() { seen[i] = watchAll(t, c, start.ResourceVersion, writers*writesEach) })
	}
	var writes sync.WaitGroup
	for wr := range writers {
		writes.Go(func() {
			name := fmt.Sprintf("writer%d", wr)
			create(t, store, newWidget("ns", name, "red", nil))
			for range writesEach - 1 {
				update(t, store, "ns", name, func(w *storagetest.Widget) { w.Spec.Counter++ })
			}
		})
	}
	writes.Wait()
	wg.Wait()
	for i := 1; i < watchers; i++ {
		require.Equal(t, seen[0], seen[i], "watcher %d saw what watcher 0 saw", i)
	}
	require.Len(t, seen[0], writers*writesEach, "events")
	for i := 1; i < len(seen[0]); i++ {
		require.Greater(t, seen[0][i], seen[0][i-1], "event %d in revision order", i)
	}
}

// watchAll watches from rv until it has seen n events, watching again
// from the last revision it saw if its watch ends, as a client does; it
// returns the revisions.
func watchAll(t *testing.T, c *watchcache.Cacher, rv int64, n int) []int64 {
	var got []int64
	for len(got) < n {
		w, err := c.Watch(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(rv)})
		if !assert.NoError(t, err, "Watch from %d", rv) {
			return got
		}
		for len(got) < n {
			ev, ok := <-w.ResultChan()
			if !ok {
				break
			}
			if !assert.NotEqual(t, watch.Error, ev.Type, "event %+v", ev.Object) {
				w.Stop()
				return got
			}
			rv = rvOf(t, ev.Object)
			got = append(got, rv)
		}
		w.Stop()
	}
	return got
}

// TestWatchFromEveryResourceVersion: a history of creates, updates and
// deletes; a watch started at each of its revisions sees exactly the
// events after it, and nothing else.
func TestWatchFromEveryResourceVersion(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	var history []written
	record := func(typ watch.EventType, obj *storagetest.Widget) { history = append(history, written{typ, obj}) }
	for i := range 4 {
		record(watch.Added, create(t, store, newWidget("ns", numbered(i), "red", nil)))
	}
	for i := range 12 {
		name := numbered(i % 4)
		switch i % 3 {
		case 0, 1:
			record(watch.Modified, update(t, store, "ns", name, func(w *storagetest.Widget) { w.Spec.Counter++ }))
		case 2:
			record(watch.Deleted, del(t, store, "ns", name))
			record(watch.Added, create(t, store, newWidget("ns", name, "blue", nil)))
		}
	}
	last := history[len(history)-1].obj
	waitSeen(t, c, rvOf(t, last))

	first := rvOf(t, history[0].obj) - 1
	for rv := first; rv <= rvOf(t, last); rv++ {
		var want []written
		for _, h := range history {
			if rvOf(t, h.obj) > rv {
				want = append(want, h)
			}
		}
		w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(rv)})
		for i, h := range want {
			ev := nextEvent(t, w)
			require.Equal(t, h.typ, ev.Type, "watch from %d, event %d", rv, i)
			require.Equal(t, runtime.Object(h.obj), ev.Object, "watch from %d, event %d", rv, i)
		}
		w.Stop()
		assert.Empty(t, expectClosed(t, w), "watch from %d: nothing after the suffix", rv)
	}
}
