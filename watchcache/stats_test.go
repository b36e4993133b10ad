package watchcache_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/watchcache"
)

// TestStats checks the window a Cacher reports: after the list, then
// once events have pushed the oldest out of a window of two.
func TestStats(t *testing.T) {
	f := newFakeStorage(10, at(5, "ns", "a", "red"))
	c, fw := startFake(t, f, watchcache.Options{Capacity: 2})
	assert.Equal(t, watchcache.Stats{Capacity: 2, WindowRV: 10, ResourceVersion: 10, Objects: 1}, c.Stats(),
		"after the list: an empty window from the list's revision")

	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "10"})
	fw.send(t, watch.Added, at(11, "ns", "b", "red"))
	fw.send(t, watch.Modified, at(12, "ns", "b", "blue"))
	fw.send(t, watch.Deleted, at(13, "ns", "a", "red"))
	expectEvent(t, w, watch.Added, "ns", "b")
	expectEvent(t, w, watch.Modified, "ns", "b")
	expectEvent(t, w, watch.Deleted, "ns", "a")
	assert.Equal(t, watchcache.Stats{
		Capacity: 2, Events: 2, WindowRV: 11, OldestRV: 12, NewestRV: 13, ResourceVersion: 13, Objects: 1, Watchers: 1,
	}, c.Stats(), "after three events in a window of two")
}
