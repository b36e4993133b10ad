package watchcache_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/watchcache"
)

// TestRelist: when the storage watch fails, the Cacher closes its
// watchers, makes requests wait, and after the backoff (fake time) lists
// again and watches from the new list's revision; the window now starts
// there.
func TestRelist(t *testing.T) {
	tests := []struct {
		name string
		fail func(t *testing.T, fw *fakeWatch)
	}{
		{"watch expired", func(t *testing.T, fw *fakeWatch) { fw.expire(t) }},
		{"watch closed", func(t *testing.T, fw *fakeWatch) { close(fw.ch) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc := clocktest.NewFake(time.Unix(0, 0))
			f := newFakeStorage(10, at(5, "ns", "a", "red"))
			c, fw := startFake(t, f, watchcache.Options{Clock: fc})
			w := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true})
			expectEvent(t, w, watch.Added, "ns", "a")

			f.setState(20, at(5, "ns", "a", "red"), at(18, "ns", "b", "red"))
			tc.fail(t, fw)
			assert.Empty(t, expectClosed(t, w), "watchers close when the storage watch fails")

			listed := make(chan *storage.ListResult, 1)
			go func() {
				res, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
				assert.NoError(t, err, "GetList rv=0 during the relist")
				listed <- res
			}()
			// The dispatcher's ticker and the backoff timer.
			require.NoError(t, fc.BlockUntilWaiters(waitCtx(t), 2), "reflector backing off")
			assert.Equal(t, 1, f.listCount(), "no relist before the backoff")
			fc.Step(2 * 800 * time.Millisecond)
			fw2 := f.nextWatch(t)
			assert.Equal(t, "20", fw2.from, "the new watch starts at the new list's revision")
			res := <-listed
			require.NotNil(t, res, "list result")
			assert.Equal(t, []string{"ns/a", "ns/b"}, names(t, res.Items), "list after the relist")
			assert.Equal(t, int64(20), res.ResourceVersion, "its revision")

			old := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "15"})
			ev := nextEvent(t, old)
			assert.Equal(t, watch.Error, ev.Type, "a watch from before the relist's revision gets 410")
			w2 := startWatch(t, c, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "20"})
			fw2.send(t, watch.Added, at(21, "ns", "c", "red"))
			expectEvent(t, w2, watch.Added, "ns", "c")
		})
	}
}
