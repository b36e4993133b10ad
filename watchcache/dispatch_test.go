package watchcache_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/wait/waittest"
	"github.com/minicp/minicp/watchcache"
)

// collect reads w into a channel until w closes, so a test can wait for
// the fast watcher's events with a deadline.
func collect(t *testing.T, w watch.Interface) <-chan watch.Event {
	t.Helper()
	// 1000 events: more than any test here sends.
	out := make(chan watch.Event, 1000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(out)
		for ev := range w.ResultChan() {
			out <- ev
		}
	}()
	t.Cleanup(func() {
		w.Stop()
		<-done
	})
	return out
}

// receive waits for the next collected event.
func receive(t *testing.T, ch <-chan watch.Event) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-ch:
		require.True(t, ok, "watch closed while an event was expected")
		return ev
	case <-waitCtx(t).Done():
		t.Fatalf("no event within %v", waittest.Timeout)
		return watch.Event{}
	}
}

// TestSlowWatcherIsClosedAfterBudget: a watcher nobody reads fills up; the
// dispatcher still hands every event to a fast watcher at once, waits for
// the stalled one no longer than the budget (fake time), then closes it.
// The stalled watcher got a gapless prefix of the events before it closed.
func TestSlowWatcherIsClosedAfterBudget(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	f := newFakeStorage(1)
	const budget = 100 * time.Millisecond
	c, fw := startFake(t, f, watchcache.Options{Clock: fc, DispatchTimeoutBudget: budget})
	fast := collect(t, startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true}))
	stalled := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})

	// A watcher of an idle resource holds 100 events in input, 10 in
	// result and one in its goroutine's hand: the 112th event finds it
	// full.
	const fill = 112
	for i := range fill {
		fw.send(t, watch.Added, at(int64(2+i), "ns", numbered(i), "red"))
		ev := receive(t, fast)
		require.Equal(t, numbered(i), ev.Object.(*storagetest.Widget).Name, "fast watcher's event %d, before any time passed", i)
	}
	// The dispatcher is now waiting on the stalled watcher: its timer is
	// the waiter next to the bookmark ticker.
	require.NoError(t, fc.BlockUntilWaiters(waitCtx(t), 2), "dispatcher waits for the stalled watcher")
	fw.send(t, watch.Added, at(2+fill, "ns", numbered(fill), "red"))
	waitSeen(t, c, 2+fill)
	select {
	case ev := <-fast:
		t.Fatalf("event %v dispatched while the dispatcher waits on the stalled watcher", ev.Object)
	default:
	}

	fc.Step(budget)
	ev := receive(t, fast)
	assert.Equal(t, numbered(fill), ev.Object.(*storagetest.Widget).Name, "the fast watcher's next event, after the budget")

	got := expectClosed(t, stalled)
	assert.NotEmpty(t, got, "the stalled watcher's buffered events")
	for i, ev := range got {
		assert.Equal(t, numbered(i), ev.Object.(*storagetest.Widget).Name, "stalled watcher's event %d: a prefix, no gap", i)
	}
}

// TestIndexedTriggers: a watch on spec.color=red is offered only the
// events of objects that are or were red; one on blue only blue ones.
func TestIndexedTriggers(t *testing.T) {
	f := newFakeStorage(1)
	c, fw := startFake(t, f, watchcache.Options{Indexers: map[string]watchcache.IndexFunc{"spec.color": colorIndex}})
	watchColor := func(color string) watch.Interface {
		return startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true,
			Predicate: storage.Predicate{Field: fields.OneTermEqualSelector("spec.color", color)}})
	}
	red, blue := watchColor("red"), watchColor("blue")
	all := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})
	redInB := startWatch(t, c, widgetPrefix+"/b", storage.ListOptions{Recursive: true,
		Predicate: storage.Predicate{Field: fields.OneTermEqualSelector("spec.color", "red")}})

	fw.send(t, watch.Added, at(2, "a", "x", "blue"))
	fw.send(t, watch.Added, at(3, "a", "y", "blue"))
	fw.send(t, watch.Added, at(4, "a", "z", "red"))
	fw.send(t, watch.Modified, at(5, "a", "x", "red")) // blue -> red: both
	fw.send(t, watch.Modified, at(6, "a", "y", "blue"))
	fw.send(t, watch.Deleted, at(7, "a", "z", "red"))
	fw.send(t, watch.Added, at(8, "b", "r", "red"))
	fw.send(t, watch.Added, at(9, "a", "fence", "green"))
	for _, name := range []string{"x", "y", "z", "x", "y", "z", "r", "fence"} {
		ev := nextEvent(t, all)
		require.Equal(t, name, ev.Object.(*storagetest.Widget).Name, "untriggered watcher's events in order")
	}
	// The fence reached a watcher: the dispatcher is done with every event
	// before it.
	assert.Equal(t, int64(4), watchcache.Offered(red), "red watcher's wakeups: z, x (became red), z deleted, b/r")
	assert.Equal(t, int64(4), watchcache.Offered(blue), "blue watcher's wakeups: x, y, x (was blue), y")
	assert.Equal(t, int64(8), watchcache.Offered(all), "an untriggered watcher gets every event")
	assert.Equal(t, int64(1), watchcache.Offered(redInB), "red watcher of namespace b: b/r only")

	expectEvent(t, red, watch.Added, "a", "z")
	expectEvent(t, red, watch.Added, "a", "x")
	expectEvent(t, red, watch.Deleted, "a", "z")
	expectEvent(t, red, watch.Added, "b", "r")
	expectEvent(t, blue, watch.Added, "a", "x")
	expectEvent(t, blue, watch.Added, "a", "y")
	left := expectEvent(t, blue, watch.Deleted, "a", "x")
	assert.Equal(t, "blue", left.Spec.Color, "x leaving blue is its last blue state")
	assert.Equal(t, "5", left.ResourceVersion, "at the revision it turned red")
	expectEvent(t, blue, watch.Modified, "a", "y")
	expectEvent(t, redInB, watch.Added, "b", "r")
}

// TestWatchersStopWithTheirContext: a watch whose ctx ends closes and
// leaves the Cacher, which no longer offers it events.
func TestWatchersStopWithTheirContext(t *testing.T) {
	f := newFakeStorage(1)
	c, fw := startFake(t, f, watchcache.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	w, err := c.Watch(ctx, widgetPrefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err, "Watch")
	cancel()
	assert.Empty(t, expectClosed(t, w), "a watch ends with its ctx")
	all := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})
	fw.send(t, watch.Added, at(2, "ns", "a", "red"))
	expectEvent(t, all, watch.Added, "ns", "a")
	assert.Equal(t, int64(0), watchcache.Offered(w), "a stopped watch is offered nothing")
}
