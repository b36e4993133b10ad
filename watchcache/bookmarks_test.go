package watchcache_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// expectBookmark waits for a BOOKMARK and returns its resourceVersion.
func expectBookmark(t *testing.T, w watch.Interface) string {
	t.Helper()
	ev := nextEvent(t, w)
	require.Equal(t, watch.Bookmark, ev.Type, "event %+v", ev.Object)
	obj, ok := ev.Object.(*storagetest.Widget)
	require.True(t, ok, "bookmark object is a %T", ev.Object)
	want := &storagetest.Widget{ObjectMeta: metav1.ObjectMeta{ResourceVersion: obj.ResourceVersion}}
	assert.Equal(t, want, obj, "a bookmark's object has only its resourceVersion")
	return obj.ResourceVersion
}

// TestBookmarks: with a fake clock, a watcher that asked for bookmarks
// gets one every BookmarkFrequency, at the revision of the last event or
// storage progress, and one that did not gets none.
func TestBookmarks(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	f := newFakeStorage(10)
	const freq = time.Minute
	c, fw := startFake(t, f, watchcache.Options{Clock: fc, BookmarkFrequency: freq})
	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ProgressNotify: true})
	plain := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})
	// The dispatcher's ticker.
	require.NoError(t, fc.BlockUntilWaiters(waitCtx(t), 1), "dispatcher waiting")

	fc.Step(freq)
	assert.Equal(t, "10", expectBookmark(t, w), "an idle watcher's bookmark: the list's revision")

	fw.send(t, watch.Added, at(11, "ns", "a", "red"))
	expectEvent(t, w, watch.Added, "ns", "a")
	fw.send(t, watch.Bookmark, bookmarkAt(15))
	// The reflector takes the second, which is no news, only after it has
	// queued the first for the dispatcher.
	fw.send(t, watch.Bookmark, bookmarkAt(15))
	fc.Step(freq)
	assert.Equal(t, "15", expectBookmark(t, w), "a bookmark carries storage progress past the last event")

	fw.send(t, watch.Added, at(16, "ns", "fence", "red"))
	expectEvent(t, plain, watch.Added, "ns", "a")
	expectEvent(t, plain, watch.Added, "ns", "fence")
	expectEvent(t, w, watch.Added, "ns", "fence")
}

// TestCacheFollowsStorageProgress: while the resource is idle, etcd's
// progress notifications (asked for by the waiting request) move the
// cache to a revision another resource wrote, so a list or watch from it
// is served without waiting out the bound.
func TestCacheFollowsStorageProgress(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	other, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{Prefix: storagetest.Prefix(t), NewFunc: storagetest.NewWidget})
	require.NoError(t, err, "NewStore")
	elsewhere := create(t, other, newWidget("ns", "elsewhere", "red", nil))

	res, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true,
		ResourceVersion: elsewhere.ResourceVersion, ResourceVersionMatch: storage.ResourceVersionMatchNotOlderThan})
	require.NoError(t, err, "GetList not older than another resource's write")
	assert.GreaterOrEqual(t, res.ResourceVersion, rvOf(t, elsewhere), "list revision")
	assert.Empty(t, res.Items, "no widgets here")

	w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: elsewhere.ResourceVersion})
	mine := create(t, store, newWidget("ns", "mine", "red", nil))
	assert.Equal(t, mine, expectEvent(t, w, watch.Added, "ns", "mine"), "event after the other resource's revision")
}
