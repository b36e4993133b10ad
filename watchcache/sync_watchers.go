package watchcache

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/watch"
)

// Syncing watchers is how a barrier learns that every watch has been told
// everything up to a revision: a cluster waiting until its components
// have handled every write so far reads etcd's revision rv, asks every
// Cacher to SyncWatchers to rv, and then waits until each informer has
// seen a resourceVersion of at least rv. A watcher's events arrive in
// order and a bookmark never overtakes one, so the BOOKMARK a watcher gets
// here means it has been given every event up to rv; without it, a
// resource nobody wrote to since would leave its watchers' resourceVersion
// behind rv for as long as the periodic bookmarks take.

// syncRequest is a SyncWatchers call waiting for the dispatcher.
type syncRequest struct {
	rv int64
	// doneCh is closed by the dispatcher once the bookmark is in every
	// watcher's input.
	doneCh chan struct{}
}

// SyncWatchers blocks until the cache is current to rv and every watcher
// that asked for bookmarks has been given, after its events up to rv, a
// BOOKMARK at rv or later (a watcher whose last event is at that
// revision already has one). A watcher that stays full past the dispatch
// budget is closed, as for an event, and its client watches again from
// where it was. It returns ctx's error, or ErrTooLargeResourceVersion
// when etcd does not confirm rv in time. Safe for concurrent use.
func (c *Cacher) SyncWatchers(ctx context.Context, rv int64) error {
	if cur, _ := c.watchCache.fresh(); cur < rv {
		// Behind: ask etcd now rather than within progressRequestPeriod,
		// since a barrier calls this round after round.
		c.progress.requestNow()
	}
	if err := c.waitUntilFresh(ctx, c.resourcePrefix, rv); err != nil {
		return fmt.Errorf("sync watchers of %s: %w", c.resourcePrefix, err)
	}
	req := &syncRequest{rv: rv, doneCh: make(chan struct{})}
	select {
	case c.syncCh <- req:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-req.doneCh:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serveSyncs answers, in the dispatcher goroutine, the requests whose
// revision the dispatcher has reached (every event up to lastRV is in its
// watchers' inputs): one bookmark at lastRV serves all of them. It
// returns the requests still waiting.
func (d *dispatcher) serveSyncs(ctx context.Context, pending []*syncRequest, lastRV int64) []*syncRequest {
	if len(pending) == 0 {
		return pending
	}
	waiting := pending[:0]
	var served []*syncRequest
	for _, req := range pending {
		if req.rv <= lastRV {
			served = append(served, req)
		} else {
			waiting = append(waiting, req)
		}
	}
	if len(served) == 0 {
		return waiting
	}
	d.bookmarkAll(ctx, lastRV)
	for _, req := range served {
		close(req.doneCh)
	}
	clear(pending[len(waiting):])
	return waiting
}

// bookmarkAll puts a BOOKMARK at rv into the input of every watcher that
// asked for bookmarks, with the dispatch budget and slow-watcher policy of
// an event.
func (d *dispatcher) bookmarkAll(ctx context.Context, rv int64) {
	c := d.c
	d.watchers = d.watchers[:0]
	c.mu.Lock()
	for w := range c.watchers.bookmarks {
		d.watchers = append(d.watchers, w)
	}
	c.mu.Unlock()
	ev := &watchCacheEvent{Type: watch.Bookmark, ResourceVersion: rv}
	for _, w := range d.watchers {
		if !w.nonblockingAdd(ev) {
			d.blocked = append(d.blocked, w)
		}
	}
	if len(d.blocked) > 0 {
		d.waitForBlocked(ctx, ev)
	}
	clear(d.watchers)
	clear(d.blocked)
	d.blocked = d.blocked[:0]
}
