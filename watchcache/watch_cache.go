package watchcache

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/wait"
)

// The window's dynamic size, Kubernetes' (watch_cache.go): start at the
// lower bound, double while a full buffer holds less than eventFreshDuration
// of history, halve while its newest quarter is already older than that.
const (
	// defaultLowerBoundCapacity is where the window starts and how small it
	// shrinks: 100 events was Kubernetes' --default-watch-cache-size before
	// the window became dynamic.
	defaultLowerBoundCapacity = 100
	// defaultUpperBoundCapacity is how large it grows: 100*1024 events keeps
	// eventFreshDuration of history at ~1,365 events/s, beyond what one
	// resource of a small control plane writes.
	defaultUpperBoundCapacity = 100 * 1024
	// eventFreshDuration is the history the window tries to keep: the
	// bookmark frequency (a minute) plus 15s, so a client that got a
	// bookmark can almost always resume from it without a 410.
	eventFreshDuration = defaultBookmarkFrequency + 15*time.Second
)

// watchCacheEvent is one change, as the cache keeps it and hands it to
// watchers. Next to the object it carries the object's previous state, so
// each watcher's filter can tell an object entering its selector (ADDED)
// from one leaving it (DELETED). Events are immutable once built, and
// shared by every watcher.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCacheEvent).
type watchCacheEvent struct {
	Type watch.EventType
	Key  string
	// ResourceVersion is the etcd revision of the change. For Bookmark
	// events (progress from etcd, or the revision of a list), it is the only
	// field set: nothing changed, but the cache is current to it.
	ResourceVersion int64
	RecordTime      time.Time
	// Object is the state after the change; for DELETED, the last state
	// with the delete's resourceVersion.
	Object *storeElement
	// Prev is the state before the change, nil if the key held nothing.
	Prev *storeElement

	// prevOnce builds prevAtRV, Prev's object at the event's
	// resourceVersion, the first time a watcher sees the object leave its
	// selector; later watchers share it. With cachingObject set, it also
	// wraps it in cachingPrev.
	prevOnce    sync.Once
	prevAtRV    runtime.Object
	cachingPrev *cachingObject

	// cachingObject wraps Object.Object for watchers that asked for
	// cachingObjects. It is set only on the copy of an event the
	// dispatcher hands out (withCachingObjects), never on the window's.
	cachingObject *cachingObject
}

// prevObjectAtRV returns the previous state with the event's
// resourceVersion: the object of the DELETED event a watcher gets when the
// object leaves its selector.
func (e *watchCacheEvent) prevObjectAtRV() runtime.Object {
	e.prevOnce.Do(func() {
		obj := e.Prev.Object.DeepCopyObject()
		metav1.MustAccessor(obj).ResourceVersion = strconv.FormatInt(e.ResourceVersion, 10)
		e.prevAtRV = obj
		if e.cachingObject != nil {
			e.cachingPrev = newCachingObject(obj)
		}
	})
	return e.prevAtRV
}

// object returns the object of the event as a watcher sees it: wrapped in
// a cachingObject when the watcher asked for one and the event has one.
func (e *watchCacheEvent) object(caching bool) runtime.Object {
	if caching && e.cachingObject != nil {
		return e.cachingObject
	}
	return e.Object.Object
}

// prevObject is prevObjectAtRV as a watcher sees it, as object.
func (e *watchCacheEvent) prevObject(caching bool) runtime.Object {
	obj := e.prevObjectAtRV()
	if caching && e.cachingPrev != nil {
		return e.cachingPrev
	}
	return obj
}

// withCachingObjects returns a copy of the event whose objects are
// cachingObjects, for the watchers it is being dispatched to: they share
// its serializations, which go away with the copy once they have all sent
// it, so the window (which keeps e) never holds them.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (setCachingObjects).
func (e *watchCacheEvent) withCachingObjects() *watchCacheEvent {
	return &watchCacheEvent{
		Type:            e.Type,
		Key:             e.Key,
		ResourceVersion: e.ResourceVersion,
		RecordTime:      e.RecordTime,
		Object:          e.Object,
		Prev:            e.Prev,
		cachingObject:   newCachingObject(e.Object.Object),
	}
}

// watchCache is a sliding window of the most recent events (a ring buffer)
// next to the current state (store) of one resource, and the revision both
// are current to. One goroutine (the reflector) writes to it; any number
// read. Reads never block on writes for longer than one event's update.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCache,
// watchCacheHistory).
type watchCache struct {
	clock clock.Clock
	// fixedCapacity: the window keeps its capacity instead of following the
	// event rate.
	fixedCapacity bool

	// mu guards every field below.
	mu sync.RWMutex
	// capacity is the size of cache, between lowerBound and upperBound.
	capacity, lowerBound, upperBound int
	// cache is a ring buffer: the events in the window are
	// cache[startIndex%capacity], ..., cache[(endIndex-1)%capacity], oldest
	// first, so there are endIndex-startIndex of them; startIndex and
	// endIndex only grow. Their ResourceVersions strictly increase.
	cache      []*watchCacheEvent
	startIndex int
	endIndex   int
	// windowRV is the oldest resourceVersion a watch can start from: every
	// event after it is in cache. It is the last list's revision until an
	// event is evicted, then the evicted event's revision.
	windowRV int64
	// store is the state at resourceVersion.
	store *store
	// resourceVersion is the revision the cache is current to; it never
	// goes backwards, except through replace.
	resourceVersion int64
	// stateRV is the revision of the last change to store (the list's, or
	// the last event's): the state at every revision in
	// [stateRV, resourceVersion] is the same, so a continue token of any of
	// them can be served from store.
	stateRV int64
	// freshness is notified whenever resourceVersion moves, waking
	// waitUntilFresh.
	freshness wait.Broadcast
}

func newWatchCache(c clock.Clock, capacity int, indexNames []string) *watchCache {
	w := &watchCache{
		clock:      c,
		capacity:   defaultLowerBoundCapacity,
		lowerBound: defaultLowerBoundCapacity,
		upperBound: defaultUpperBoundCapacity,
		store:      newStore(indexNames),
	}
	if capacity > 0 {
		w.fixedCapacity = true
		w.capacity, w.lowerBound, w.upperBound = capacity, capacity, capacity
	}
	w.cache = make([]*watchCacheEvent, w.capacity)
	return w
}

// replace installs the state of a list read at rv, emptying the window:
// watches can start from rv onwards. It takes elems.
func (w *watchCache) replace(elems []*storeElement, rv int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.store.replace(elems)
	// startIndex never goes backwards: empty the window by moving it.
	w.startIndex = w.endIndex
	clear(w.cache)
	w.windowRV, w.resourceVersion, w.stateRV = rv, rv, rv
	w.notifyLocked()
}

// add records an event and applies it to the store; ev.Prev is filled in
// from the store. Events must come in revision order.
func (w *watchCache) add(ev *watchCacheEvent) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ev.ResourceVersion <= w.resourceVersion {
		return fmt.Errorf("event for %s at revision %d is not after the cache's revision %d", ev.Key, ev.ResourceVersion, w.resourceVersion)
	}
	if prev, ok := w.store.get(ev.Key); ok {
		ev.Prev = prev
	}
	w.resizeLocked(ev.RecordTime)
	if w.endIndex-w.startIndex == w.capacity {
		// Full: the oldest event leaves the window, and so does every
		// revision up to it.
		w.windowRV = w.cache[w.startIndex%w.capacity].ResourceVersion
		w.cache[w.startIndex%w.capacity] = nil
		w.startIndex++
	}
	w.cache[w.endIndex%w.capacity] = ev
	w.endIndex++
	if ev.Type == watch.Deleted {
		w.store.delete(ev.Key)
	} else {
		w.store.upsert(ev.Object)
	}
	w.resourceVersion, w.stateRV = ev.ResourceVersion, ev.ResourceVersion
	w.notifyLocked()
	return nil
}

// resizeLocked doubles a full window whose oldest event is younger than
// eventFreshDuration and halves a full one whose newest quarter is already
// older, within [lowerBound, upperBound].
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCache.resizeCacheLocked).
func (w *watchCache) resizeLocked(now time.Time) {
	if w.fixedCapacity || w.endIndex-w.startIndex != w.capacity {
		return
	}
	if now.Sub(w.cache[w.startIndex%w.capacity].RecordTime) < eventFreshDuration {
		if c := min(2*w.capacity, w.upperBound); c > w.capacity {
			w.resizeToLocked(c)
		}
		return
	}
	// Halving only when the newest quarter is stale keeps the window from
	// flapping between two sizes.
	if now.Sub(w.cache[(w.endIndex-w.capacity/4)%w.capacity].RecordTime) > eventFreshDuration {
		if c := max(w.capacity/2, w.lowerBound); c < w.capacity {
			w.resizeToLocked(c)
		}
	}
}

func (w *watchCache) resizeToLocked(capacity int) {
	if capacity < w.endIndex-w.startIndex {
		// Shrinking evicts the oldest events.
		newStart := w.endIndex - capacity
		w.windowRV = w.cache[(newStart-1)%w.capacity].ResourceVersion
		w.startIndex = newStart
	}
	cache := make([]*watchCacheEvent, capacity)
	for i := w.startIndex; i < w.endIndex; i++ {
		cache[i%capacity] = w.cache[i%w.capacity]
	}
	w.cache, w.capacity = cache, capacity
}

// updateResourceVersion moves the cache to rv without a change (a progress
// notification from etcd). It reports whether rv was news.
func (w *watchCache) updateResourceVersion(rv int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if rv <= w.resourceVersion {
		return false
	}
	w.resourceVersion = rv
	w.notifyLocked()
	return true
}

func (w *watchCache) notifyLocked() { w.freshness.Notify() }

// fresh returns the cache's revision and a channel closed when it moves.
func (w *watchCache) fresh() (int64, <-chan struct{}) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.resourceVersion, w.freshness.Wait()
}

// getCapacity returns the window's current capacity.
func (w *watchCache) getCapacity() int {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.capacity
}

// eventsSinceLocked returns the events after rv, oldest first, or an error
// wrapping storage.ErrExpired when the window no longer reaches back to rv;
// its Detail is the message of the watch's 410, as Kubernetes words it.
// The caller holds mu (for reading).
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCache.getAllEventsSinceLocked).
func (w *watchCache) eventsSinceLocked(key string, rv int64) ([]*watchCacheEvent, error) {
	if rv < w.windowRV {
		return nil, storage.NewExpiredError(key, rv, fmt.Sprintf("too old resource version: %d (%d)", rv, w.windowRV))
	}
	n := w.endIndex - w.startIndex
	// The first event after rv: revisions increase along the window.
	first := sort.Search(n, func(i int) bool {
		return w.cache[(w.startIndex+i)%w.capacity].ResourceVersion > rv
	})
	events := make([]*watchCacheEvent, 0, n-first)
	for i := first; i < n; i++ {
		events = append(events, w.cache[(w.startIndex+i)%w.capacity])
	}
	return events, nil
}

// suggestedWatchChannelSize sizes a new watcher's channels to hold about
// one second of the resource's events: the window's capacity over the
// history it is meant to keep.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCache.suggestedWatchChannelSize).
func suggestedWatchChannelSize(capacity int, indexExists, triggerUsed bool) int {
	size := int(math.Ceil(float64(capacity) / eventFreshDuration.Seconds()))
	maxSize := maxWatchChanSizeWithoutIndex
	switch {
	case indexExists && triggerUsed:
		maxSize = maxWatchChanSizeWithIndexAndTrigger
	case indexExists:
		maxSize = maxWatchChanSizeWithIndexWithoutTrigger
	}
	return min(max(size, minWatchChanSize), maxSize)
}

// Bounds of a watcher's channel sizes, Kubernetes'.
const (
	// minWatchChanSize: 10 events absorb the jitter of a reader that keeps
	// up on average, at 400 bytes per idle watcher.
	minWatchChanSize = 10
	// maxWatchChanSizeWithIndexAndTrigger: a triggered watcher (a kubelet on
	// spec.nodeName) sees only its own objects' events; 10 is plenty.
	maxWatchChanSizeWithIndexAndTrigger = 10
	// maxWatchChanSizeWithIndexWithoutTrigger: a watcher of an indexed
	// resource that selects no index value (the scheduler on all pods)
	// sees everything on the busiest resources: up to 1000.
	maxWatchChanSizeWithIndexWithoutTrigger = 1000
	// maxWatchChanSizeWithoutIndex: any other watcher, up to 100.
	maxWatchChanSizeWithoutIndex = 100
)

// minInputChanSize is the least a watcher's input holds, whatever the
// heuristic says for its result channel. The input holds pointers, so 100
// events of slack cost 800 bytes a watcher; with Kubernetes' 10, a burst
// on a resource whose window is still small (1,000 watchers fed 10,000
// events, BenchmarkWatchFanout) overflows thousands of watchers past the
// dispatch budget on a 2-core machine, and they all re-watch.
const minInputChanSize = 100
