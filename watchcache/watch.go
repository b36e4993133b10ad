package watchcache

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
)

// Watch streams the changes under key (a single object's key, or every key
// below it when opts.Recursive; key must be the resource prefix or under
// it) that match opts.Predicate, from the cache. It returns once the watch
// is registered; it first waits, bounded by ctx, for the cache to be
// ready, and for opts.ResourceVersion if the cache is behind it.
//
// By opts.ResourceVersion:
//
//	"" or "0"   the cache's current state as ADDED events, then changes
//	N (window)  the window's events after N, then changes
//	N (older)   a watch whose only event is an Error with a 410 Expired
//	            Status, as storage sends for a compacted revision
//	N (newer)   waits until the cache reaches N; after blockTimeout,
//	            ErrTooLargeResourceVersion
//
// An object that starts matching the predicate is sent as ADDED, one that
// stops matching as DELETED. With opts.ProgressNotify the watch also gets a
// BOOKMARK every BookmarkFrequency. The watch ends, closing ResultChan,
// when ctx is done, on Stop, when it falls behind for longer than the
// dispatch budget, when the cache relists, or when the Cacher stops; its
// client then watches again from the last resourceVersion it saw. Objects
// in events are shared: do not modify them. With a ctx from
// storage.WithCacheableObjects, objects of events after the initial ones come
// wrapped in a runtime.CacheableObject.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.Watch).
func (c *Cacher) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	scope, ok := c.scopeOf(key, opts.Recursive)
	if !ok {
		return nil, storage.NewInvalidKeyError(key, "not under the watch cache's prefix "+c.resourcePrefix)
	}
	rv, err := parseResourceVersion(key, opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	if err := c.ready.wait(ctx); err != nil {
		return nil, err
	}
	if err := c.waitUntilFresh(ctx, key, rv); err != nil {
		return nil, err
	}
	trigger, triggered := c.triggerOf(opts.Predicate.Field)
	size := suggestedWatchChannelSize(c.watchCache.getCapacity(), len(c.indexNames) > 0, triggered)
	w := &cacheWatcher{
		inputCh:        make(chan *watchCacheEvent, max(size, minInputChanSize)),
		resultCh:       make(chan watch.Event, size),
		stopCh:         make(chan struct{}),
		exitedCh:       make(chan struct{}),
		key:            scope.key,
		keyPrefix:      scope.key + "/",
		recursive:      scope.recursive,
		label:          opts.Predicate.Label,
		field:          opts.Predicate.Field,
		trigger:        trigger,
		triggered:      triggered,
		allowBookmarks: opts.ProgressNotify,
		cachingObjects: storage.CacheableObjectsRequested(ctx),
		newFunc:        c.newFunc,
		forget:         c.forget,
	}
	for {
		c.mu.Lock()
		if c.stopped {
			c.mu.Unlock()
			return nil, ErrStopped
		}
		if c.ready.get() != stateReady {
			// A relist began since the wait above.
			c.mu.Unlock()
			if err := c.ready.wait(ctx); err != nil {
				return nil, err
			}
			continue
		}
		// The initial events are read and the watcher registered under one
		// hold of mu, which the dispatcher takes to pick an event's
		// watchers: every event after the initial ones reaches the
		// watcher, and the ones already in them are skipped by revision.
		if err := c.initialEventsLocked(w, rv); err != nil {
			c.mu.Unlock()
			var serr *storage.Error
			if errors.As(err, &serr) && errors.Is(err, storage.ErrExpired) {
				status := apierrors.NewResourceExpired(serr.Detail).Status()
				return newErrWatcher(&status), nil
			}
			return nil, err
		}
		if w.allowBookmarks {
			w.nextBookmark = c.clock.Now().Add(c.bookmarkFrequency)
		}
		c.watchers.add(w)
		c.wg.Go(func() { w.run(ctx) })
		c.mu.Unlock()
		return w, nil
	}
}

// initialEventsLocked gives w what it sends first: the current state for a
// watch from 0, the window's events after rv otherwise. The caller holds mu.
func (c *Cacher) initialEventsLocked(w *cacheWatcher, rv int64) error {
	wc := c.watchCache
	wc.mu.RLock()
	defer wc.mu.RUnlock()
	w.startRV = wc.resourceVersion
	if rv != 0 {
		events, err := wc.eventsSinceLocked(w.key, rv)
		w.initEvents = events
		return err
	}
	if !w.recursive {
		if e, ok := wc.store.get(w.key); ok {
			w.initElems = []*storeElement{e}
		}
		return nil
	}
	for e := range wc.store.scan(w.keyPrefix, "", w.field) {
		w.initElems = append(w.initElems, e)
	}
	return nil
}

// scopeOf normalizes a watch key: the resource prefix or a key under it,
// without a trailing "/".
func (c *Cacher) scopeOf(key string, recursive bool) (watcherScope, bool) {
	k := "/" + strings.Trim(key, "/")
	if k != c.resourcePrefix && !strings.HasPrefix(k, c.resourcePrefix+"/") {
		return watcherScope{}, false
	}
	return watcherScope{key: k, recursive: recursive}, true
}

// triggerOf returns the index value a field selector pins, choosing the
// first index by name when it pins several.
func (c *Cacher) triggerOf(field fields.Selector) (triggerKey, bool) {
	if field == nil || field.Empty() {
		return triggerKey{}, false
	}
	for _, name := range c.indexNames {
		if v, ok := field.RequiresExactMatch(name); ok {
			return triggerKey{index: name, value: v}, true
		}
	}
	return triggerKey{}, false
}

// parseResourceVersion reads a resourceVersion: "" and "0" are 0, anything
// else a positive revision.
func parseResourceVersion(key, rv string) (int64, error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, storage.NewInvalidResourceVersionError(key, rv)
	}
	return n, nil
}
