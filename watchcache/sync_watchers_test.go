package watchcache_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// TestSyncWatchers: after SyncWatchers(rv), a watcher that asked for
// bookmarks has been given its events up to rv and then a BOOKMARK at rv
// or later, even when rv was written by another resource; one that did
// not ask gets nothing.
func TestSyncWatchers(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ProgressNotify: true})
	plain := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})

	mine := create(t, store, newWidget("ns", "mine", "red", nil))
	other, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{Prefix: storagetest.Prefix(t), NewFunc: storagetest.NewWidget})
	require.NoError(t, err, "NewStore")
	elsewhere := create(t, other, newWidget("ns", "elsewhere", "red", nil))

	require.NoError(t, c.SyncWatchers(waitCtx(t), rvOf(t, elsewhere)), "SyncWatchers to another resource's write")
	assert.Equal(t, mine, expectEvent(t, w, watch.Added, "ns", "mine"), "the event before the bookmark")
	rv, err := strconv.ParseInt(expectBookmark(t, w), 10, 64)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, rv, rvOf(t, elsewhere), "the bookmark is at the revision asked for or later")

	// A watcher that did not ask for bookmarks gets only the event.
	assert.Equal(t, mine, expectEvent(t, plain, watch.Added, "ns", "mine"))
	fence := create(t, store, newWidget("ns", "fence", "red", nil))
	assert.Equal(t, fence, expectEvent(t, plain, watch.Added, "ns", "fence"), "no bookmark before the next event")

	// Syncing to a revision the watcher's last event carries adds nothing
	// it would not drop.
	require.NoError(t, c.SyncWatchers(waitCtx(t), rvOf(t, fence)))
	assert.Equal(t, fence, expectEvent(t, w, watch.Added, "ns", "fence"))
}
