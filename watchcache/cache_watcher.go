package watchcache

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
)

// cacheWatcher is one client's watch. The dispatcher puts events into its
// bounded input channel; its goroutine (run) first sends the initial
// events it was created with, then filters each input event through the
// watcher's scope and selectors and sends what passes on the result
// channel, which the client reads.
//
// Slow-consumer policy: resultCh holds suggestedWatchChannelSize events,
// inputCh at least minInputChanSize. When both are full, the dispatcher waits
// for the watcher only within its time budget, then stops it: the result
// channel closes without an error, and the client watches again from the
// last resourceVersion it saw. An open watcher never misses an event.
//
// Filtering uses the previous state of each object: an object that starts
// matching is sent as ADDED, one that stops matching as DELETED (its last
// matching state, at the resourceVersion of the change), and changes that
// neither match nor did match are not sent.
//
// Objects in events are shared with the cache and other watchers: clients
// must not modify them.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (cacheWatcher).
type cacheWatcher struct {
	// inputCh (upstream: input) is sent to by the dispatcher and never
	// closed; resultCh (upstream: result) is sent to and closed by run.
	// stopCh, closed once, ends run.
	inputCh  chan *watchCacheEvent
	resultCh chan watch.Event

	stopCh   chan struct{}
	stopOnce sync.Once
	// exitedCh is closed when run has returned (and closed resultCh).
	exitedCh chan struct{}

	// key is the watched key, without a trailing "/". A recursive watcher
	// sees every key under keyPrefix (key + "/"), another only key.
	key       string
	keyPrefix string
	recursive bool
	label     labels.Selector
	field     fields.Selector
	// trigger is the index value the field selector pins, if triggered:
	// the dispatcher offers it only events whose object had or has it.
	trigger   triggerKey
	triggered bool

	allowBookmarks bool
	// cachingObjects: the watch was started storage.WithCacheableObjects, so the
	// objects of dispatched events are sent as cachingObjects.
	cachingObjects bool
	newFunc        func() runtime.Object

	// startRV is the revision of the initial events: input events at or
	// before it were already in them and are skipped.
	startRV int64
	// initElems (watch from "0": the state, sent as ADDED) or initEvents
	// (watch from N: the window's events after N) are what run sends
	// first; run drops them once sent.
	initElems  []*storeElement
	initEvents []*watchCacheEvent

	// forget removes the watcher from the Cacher; idempotent.
	forget func(*cacheWatcher)

	// nextBookmark is when the watcher is due a bookmark; the zero time
	// when it asked for none. Guarded by Cacher.mu.
	nextBookmark time.Time

	// offered counts the events the dispatcher offered the watcher (its
	// wakeups), for tests of indexed triggers.
	offered atomic.Int64
}

// Stop ends the watch and returns once its goroutine has exited and
// ResultChan is closed. It is idempotent and safe from any goroutine.
func (w *cacheWatcher) Stop() {
	w.stop()
	<-w.exitedCh
}

// ResultChan returns the events; the watcher closes it when the watch ends.
func (w *cacheWatcher) ResultChan() <-chan watch.Event { return w.resultCh }

// stop signals run to end, without waiting.
func (w *cacheWatcher) stop() { w.stopOnce.Do(func() { close(w.stopCh) }) }

// nonblockingAdd offers ev without waiting, and counts the offer; false
// means input is full.
func (w *cacheWatcher) nonblockingAdd(ev *watchCacheEvent) bool {
	w.offered.Add(1)
	return w.tryAdd(ev)
}

// tryAdd puts ev into input if there is room; false means input is full. A
// stopped watcher takes anything.
func (w *cacheWatcher) tryAdd(ev *watchCacheEvent) bool {
	// Two single-channel selects, not one over both: each compiles to a
	// non-blocking operation that locks one channel, and this runs once
	// per event per watcher.
	select {
	case w.inputCh <- ev:
		return true
	default:
	}
	select {
	case <-w.stopCh:
		return true
	default:
		return false
	}
}

// add waits for room in input until timeoutCh fires; false means it fired
// first. It does not count an offer: nonblockingAdd came first.
func (w *cacheWatcher) add(ev *watchCacheEvent, timeoutCh <-chan time.Time) bool {
	select {
	case w.inputCh <- ev:
		return true
	case <-w.stopCh:
		return true
	case <-timeoutCh:
		return false
	}
}

// run sends the initial events, then the filtered input, until ctx is
// done or the watcher is stopped. It is the only sender on result and
// closes it when it returns.
func (w *cacheWatcher) run(ctx context.Context) {
	defer close(w.exitedCh)
	defer close(w.resultCh)
	defer w.forget(w)

	for _, e := range w.initElems {
		if w.matches(e) && !w.send(ctx, watch.Event{Type: watch.Added, Object: e.Object}) {
			return
		}
	}
	for _, ev := range w.initEvents {
		if out, ok := w.convert(ev); ok && !w.send(ctx, out) {
			return
		}
	}
	w.initElems, w.initEvents = nil, nil

	lastRV := w.startRV
	for {
		var ev *watchCacheEvent
		// Fast path: take what is queued without a select over three
		// channels (whose locks the dispatcher contends for); park on all
		// three only when input is empty.
		select {
		case ev = <-w.inputCh:
		default:
			select {
			case <-ctx.Done():
				return
			case <-w.stopCh:
				return
			case ev = <-w.inputCh:
			}
		}
		if ev.Type == watch.Bookmark {
			// A bookmark must never take the watcher back: the dispatcher
			// may not have caught up with the initial events.
			if ev.ResourceVersion < lastRV {
				continue
			}
			lastRV = ev.ResourceVersion
			if w.allowBookmarks && !w.send(ctx, watch.Event{Type: watch.Bookmark, Object: w.bookmark(ev.ResourceVersion)}) {
				return
			}
			continue
		}
		// Events up to startRV were in the initial events; the dispatcher
		// may still have had them queued at registration.
		if ev.ResourceVersion <= lastRV {
			continue
		}
		lastRV = ev.ResourceVersion
		if out, ok := w.convert(ev); ok && !w.send(ctx, out) {
			return
		}
	}
}

// send blocks until the client takes ev, the watcher stops or ctx is done;
// false means the watch is over. A stopped watcher may still send while
// result has room: its client sees the end after those events.
func (w *cacheWatcher) send(ctx context.Context, ev watch.Event) bool {
	select {
	case w.resultCh <- ev:
		return true
	default:
	}
	select {
	case w.resultCh <- ev:
		return true
	case <-w.stopCh:
		return false
	case <-ctx.Done():
		return false
	}
}

// bookmark returns a BOOKMARK's object: a new object whose only field set
// is its resourceVersion. Each watcher gets its own, unlike events'
// objects: the API server sets its kind before encoding it.
func (w *cacheWatcher) bookmark(rv int64) runtime.Object {
	obj := w.newFunc()
	metav1.MustAccessor(obj).ResourceVersion = strconv.FormatInt(rv, 10)
	return obj
}

// matches reports whether e is in the watcher's scope and selectors.
func (w *cacheWatcher) matches(e *storeElement) bool {
	if w.recursive {
		if !strings.HasPrefix(e.Key, w.keyPrefix) {
			return false
		}
	} else if e.Key != w.key {
		return false
	}
	if w.label != nil && !w.label.Empty() && !w.label.Matches(e.Labels) {
		return false
	}
	if w.field != nil && !w.field.Empty() && !w.field.Matches(e.Fields) {
		return false
	}
	return true
}

// convert turns a cache event into what this watcher sees, if anything.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (cacheWatcher.convertToWatchEvent).
func (w *cacheWatcher) convert(ev *watchCacheEvent) (watch.Event, bool) {
	if ev.Type == watch.Deleted {
		if w.matches(ev.Object) {
			return watch.Event{Type: watch.Deleted, Object: ev.object(w.cachingObjects)}, true
		}
		return watch.Event{}, false
	}
	cur := w.matches(ev.Object)
	old := ev.Prev != nil && w.matches(ev.Prev)
	switch {
	case cur && old:
		return watch.Event{Type: watch.Modified, Object: ev.object(w.cachingObjects)}, true
	case cur:
		return watch.Event{Type: watch.Added, Object: ev.object(w.cachingObjects)}, true
	case old:
		return watch.Event{Type: watch.Deleted, Object: ev.prevObject(w.cachingObjects)}, true
	}
	return watch.Event{}, false
}

// errWatcher is a watch whose only event is an Error, already sent: the
// answer to a watch from a revision the window no longer reaches. It has
// no goroutine.
type errWatcher struct {
	resultCh chan watch.Event
}

func newErrWatcher(status *metav1.Status) *errWatcher {
	w := &errWatcher{resultCh: make(chan watch.Event, 1)}
	w.resultCh <- watch.Event{Type: watch.Error, Object: status}
	close(w.resultCh)
	return w
}

// Stop does nothing: the watch has already ended.
func (w *errWatcher) Stop() {}

// ResultChan returns the channel holding the Error event, already closed.
func (w *errWatcher) ResultChan() <-chan watch.Event { return w.resultCh }
