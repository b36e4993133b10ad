package watchcache

import (
	"context"
	"log/slog"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/tracing"
)

// dispatchEvents is the dispatcher: it takes the events the reflector
// queued, in revision order, and offers each to the watchers it can
// interest; on every bookmark tick it sends bookmarks to the watchers due
// one. It runs until ctx is done.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.dispatchEvents).
func (c *Cacher) dispatchEvents(ctx context.Context) {
	tick := c.clock.NewTicker(min(bookmarkTick, c.bookmarkFrequency))
	defer tick.Stop()
	// lastRV is the revision of the last event taken from incoming: every
	// event up to it is in the input of the watchers it concerns, so a
	// bookmark at lastRV tells no lie.
	var lastRV int64
	d := &dispatcher{c: c}
	// syncs are the SyncWatchers calls waiting for lastRV to reach theirs.
	var syncs []*syncRequest
	handle := func(ev *watchCacheEvent) {
		// Progress from storage (and the revision of a list) only moves
		// lastRV: forwarding every one to every watcher would cost as much
		// as events while telling clients nothing bookmarks do not.
		if ev.Type != watch.Bookmark {
			d.dispatch(ctx, ev)
		}
		lastRV = ev.ResourceVersion
		syncs = d.serveSyncs(ctx, syncs, lastRV)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-c.incomingCh:
			handle(ev)
		case req := <-c.syncCh:
			syncs = d.serveSyncs(ctx, append(syncs, req), lastRV)
		case now := <-tick.C():
			// First what is already queued, so that bookmarks are as fresh
			// as the cache; only that much, so a busy reflector cannot
			// starve the bookmarks.
			for range len(c.incomingCh) {
				handle(<-c.incomingCh)
			}
			c.dispatchBookmarks(lastRV, now)
		}
	}
}

// dispatcher holds the dispatcher goroutine's reusable buffers, so the
// hot path does not allocate per event.
type dispatcher struct {
	c *Cacher
	// watchers and blocked are reused for every event, emptied after.
	watchers []*cacheWatcher
	blocked  []*cacheWatcher
}

// dispatch offers ev to every interested watcher. It first offers it to
// all without waiting, so that fast watchers are never held back by slow
// ones; then it waits for the watchers whose input was full, all of them
// together for no longer than the time budget allows, and closes those
// still full when it runs out.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.dispatchEvent).
func (d *dispatcher) dispatch(ctx context.Context, ev *watchCacheEvent) {
	c := d.c
	c.mu.Lock()
	d.watchers = c.watchers.collect(ev, c.indexNames, c.resourcePrefix, d.watchers[:0])
	c.mu.Unlock()
	for _, w := range d.watchers {
		if w.cachingObjects {
			// Serializations live only as long as this dispatch's copy.
			ev = ev.withCachingObjects()
			break
		}
	}
	// Sending can block, so it happens with mu released: a watcher that
	// stops meanwhile takes the event and drops it (its stopCh is closed).
	if c.logger.Enabled(ctx, slog.LevelDebug) {
		c.logger.DebugContext(ctx, "dispatch", "hop", tracing.HopWatchCacheDispatch, "key", ev.Key, "rv", ev.ResourceVersion, "type", string(ev.Type), "watchers", len(d.watchers))
	}
	if link, ok := c.writerLink(ev); ok {
		// Only a traced write's event: the span is the write's next hop.
		var span trace.Span
		ctx, span = c.tracer.Start(ctx, tracing.HopWatchCacheDispatch, trace.WithNewRoot(), trace.WithLinks(link),
			trace.WithAttributes(attribute.String("key", ev.Key), tracing.KeyRV.Int64(ev.ResourceVersion),
				attribute.String("type", string(ev.Type)), attribute.Int("watchers", len(d.watchers))))
		defer span.End()
	}
	for _, w := range d.watchers {
		if !w.nonblockingAdd(ev) {
			d.blocked = append(d.blocked, w)
		}
	}
	if len(d.blocked) > 0 {
		d.waitForBlocked(ctx, ev)
	}
	// Drop the references so the buffers do not keep stopped watchers alive.
	clear(d.watchers)
	clear(d.blocked)
	d.blocked = d.blocked[:0]
}

// waitForBlocked gives the blocked watchers the available budget to make
// room for ev. The budget is one deadline for all of them, not one each:
// every blocked watcher gets the chance to unblock while it runs, and once
// it has run out, a watcher still full is closed without waiting.
func (d *dispatcher) waitForBlocked(ctx context.Context, ev *watchCacheEvent) {
	c := d.c
	start := c.clock.Now()
	budget := c.budget.takeAvailable()
	var timer clock.Timer
	expired := budget <= 0
	if !expired {
		timer = c.clock.NewTimer(budget)
	}
	for _, w := range d.blocked {
		if expired {
			if !w.tryAdd(ev) {
				c.closeSlowWatcher(ctx, w, ev)
			}
			continue
		}
		if !w.add(ev, timer.C()) {
			expired = true
			c.closeSlowWatcher(ctx, w, ev)
		}
	}
	if timer != nil {
		timer.Stop()
	}
	c.budget.returnUnused(budget - c.clock.Since(start))
}

// closeSlowWatcher stops a watcher that stayed full past the budget; its
// client sees the watch end and watches again from the last
// resourceVersion it received.
func (c *Cacher) closeSlowWatcher(ctx context.Context, w *cacheWatcher, ev *watchCacheEvent) {
	c.logger.WarnContext(ctx, "slow watcher closed", "key", w.key, "rv", ev.ResourceVersion)
	w.stop()
	c.forget(w)
}

// writerLink returns a link to the span that wrote ev, when it was
// traced. The writer may not know the revision yet (etcd tells watchers
// before it answers the writer): then it is found as the writer of the
// change in flight, and recorded for the watchers downstream.
func (c *Cacher) writerLink(ev *watchCacheEvent) (trace.Link, bool) {
	if c.revisions == nil || ev.Type == watch.Bookmark {
		return trace.Link{}, false
	}
	if link, ok := c.revisions.Link(ev.ResourceVersion); ok {
		return link, true
	}
	var prevRev int64
	if ev.Prev != nil {
		if meta, err := metav1.Accessor(ev.Prev.Object); err == nil {
			prevRev, _ = strconv.ParseInt(meta.ResourceVersion, 10, 64)
		}
	}
	sc, ok := c.revisions.PendingWriter(ev.Key, prevRev)
	if !ok {
		return trace.Link{}, false
	}
	c.revisions.Record(ev.ResourceVersion, sc)
	return trace.Link{SpanContext: sc}, true
}
