package watchcache

import (
	"time"

	"github.com/minicp/minicp/api/watch"
)

// Bookmarks keep an idle watcher's resourceVersion fresh, so that when its
// watch ends it can resume from a revision the window still holds instead
// of relisting after a 410. A watcher that asked for them
// (ListOptions.ProgressNotify, allowWatchBookmarks) is due one
// BookmarkFrequency after it registered and after each one it got; the
// dispatcher looks for due watchers every bookmarkTick and sends each a
// BOOKMARK at the revision of the last event it dispatched, which the
// storage's progress notifications keep moving while the resource is idle.
// A bookmark goes through the watcher's input like the events before it,
// so it never overtakes one, and the watcher drops any that would take it
// back behind its initial events.

// bookmarkTick is how often the dispatcher looks for watchers due a
// bookmark (Kubernetes checks every second): a bookmark is at most a
// second late, and a tick costs one pass over the bookmark watchers.
const bookmarkTick = time.Second

// dispatchBookmarks offers a BOOKMARK at rv to every watcher whose
// bookmark is due, without waiting: a watcher with a full input has events
// coming, which carry a newer resourceVersion than any bookmark, so it is
// simply offered one again at the next tick.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.dispatchEvents,
// the bookmark timer).
//
// now is the tick's time, not the clock's when the dispatcher gets to it:
// a tick read late must not find bookmarks due that were not due at it.
func (c *Cacher) dispatchBookmarks(rv int64, now time.Time) {
	if rv == 0 {
		return
	}
	var due []*cacheWatcher
	c.mu.Lock()
	for w := range c.watchers.bookmarks {
		if !w.nextBookmark.After(now) {
			due = append(due, w)
		}
	}
	c.mu.Unlock()
	if len(due) == 0 {
		return
	}
	ev := &watchCacheEvent{Type: watch.Bookmark, ResourceVersion: rv}
	sent := due[:0]
	for _, w := range due {
		if w.tryAdd(ev) {
			sent = append(sent, w)
		}
	}
	c.mu.Lock()
	for _, w := range sent {
		w.nextBookmark = now.Add(c.bookmarkFrequency)
	}
	c.mu.Unlock()
}
