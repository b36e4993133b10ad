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

// TestWaitRequestsProgress: a list for a revision the cache has not
// reached asks the storage for progress at once and every 100ms (fake
// time) until the answer, a storage Bookmark, brings the cache there.
func TestWaitRequestsProgress(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	// Requests are reported on a channel the test reads; 10 is more than
	// it lets happen.
	p := &progressFake{fakeStorage: newFakeStorage(10), requests: make(chan struct{}, 10)}
	c := startCacher(t, watchcache.Options{Storage: p, Clock: fc, RequestClock: fc})
	fw := p.nextWatch(t)

	listed := make(chan error, 1)
	go func() {
		_, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "12"})
		listed <- err
	}()
	expectRequest := func(msg string) {
		t.Helper()
		select {
		case <-p.requests:
		case <-waitCtx(t).Done():
			t.Fatalf("no progress request: %s", msg)
		}
	}
	expectRequest("when the wait starts")
	// The dispatcher's ticker, the wait's bound and its request period.
	require.NoError(t, fc.BlockUntilWaiters(waitCtx(t), 3), "the list waits")
	fc.Step(100 * time.Millisecond)
	expectRequest("after a request period without an answer")
	select {
	case <-p.requests:
		t.Fatal("more than one request per period")
	default:
	}

	fw.send(t, watch.Bookmark, bookmarkAt(12))
	require.NoError(t, <-listed, "the list, once progress brought the cache to 12")
	assert.Len(t, p.requests, 0, "no request after the wait")
}
