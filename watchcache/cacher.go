package watchcache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/tracing"
)

const (
	// defaultBookmarkFrequency is how often an idle watcher that asked for
	// bookmarks gets one: Kubernetes' minute, well inside the 5-10 minute
	// watch timeouts clients use, so a client's resourceVersion is never
	// more than a minute behind when its watch ends.
	defaultBookmarkFrequency = time.Minute
	// defaultDispatchTimeoutBudget is the most time the dispatcher waits for
	// slow watchers before it closes them, refilled at half of it per
	// second: Kubernetes' 100ms, small enough that one stuck client delays
	// the others' events by a tenth of a second at worst.
	defaultDispatchTimeoutBudget = 100 * time.Millisecond
	// incomingBufferSize is the queue between the reflector and the
	// dispatcher: Kubernetes' 100 events, which keeps etcd's watch drained
	// while the dispatcher waits out a slow watcher.
	incomingBufferSize = 100
)

// Options configures a Cacher.
type Options struct {
	// Storage is the storage.Interface the Cacher caches and delegates to.
	// Required.
	Storage storage.Interface
	// ResourcePrefix is the key prefix of the resource's objects, as the
	// registry builds keys ("/pods"): the Cacher lists and watches
	// everything under it. Objects' keys are ResourcePrefix/namespace/name,
	// or ResourcePrefix/name for cluster-scoped ones. Required.
	ResourcePrefix string
	// NewFunc returns a new empty object of the resource's kind, for
	// bookmarks and for Get with IgnoreNotFound. Required.
	NewFunc func() runtime.Object
	// GetAttrs returns an object's labels and selectable fields. The Cacher
	// matches every selector with it, whatever a Predicate's GetAttrs
	// says, so it must be the registry's. Defaults to storage.DefaultAttrs.
	GetAttrs storage.AttrFunc
	// Indexers index the cache by name: a field selector that pins a value
	// of an indexed field ("spec.nodeName=node-1", indexed as
	// "spec.nodeName") lists from the index, and a watch with one is woken
	// only by events of objects that have or had that value. Optional.
	Indexers map[string]IndexFunc
	// Capacity fixes the number of events the window keeps. Defaults to 0,
	// Kubernetes' dynamic window: 100 events, doubling while 75s of history
	// does not fit, up to 102,400.
	Capacity int
	// Clock times bookmarks, the dispatch budget and backoff. Defaults to
	// clock.Real.
	Clock clock.Clock
	// RequestClock times how long a request waits for the cache to catch
	// up with a resourceVersion (the 3-second bound, and the progress
	// requests that speed it up). Defaults to clock.Real even when Clock
	// is a fake: that wait is request latency, and a client's request must
	// not hang until a test steps its cluster's clock (a step past the
	// bound would then fail it).
	RequestClock clock.Clock
	// Logger receives Info records on sync and shutdown, Warn records for
	// relists and closed slow watchers, and Debug records per dispatched
	// event (hop "watchcache.dispatch"). Defaults to a logger that discards.
	Logger *slog.Logger
	// BookmarkFrequency is how often a watcher that asked for bookmarks
	// gets one. Defaults to one minute.
	BookmarkFrequency time.Duration
	// DispatchTimeoutBudget is the most time the dispatcher waits for
	// watchers whose input is full before closing them; it refills at half
	// of it per second. Defaults to 100ms.
	DispatchTimeoutBudget time.Duration
	// Tracing, when set, records each dispatched event as a
	// watchcache.dispatch span linked to the span that wrote its
	// revision. Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
}

// Cacher is a storage.Interface that serves watches, and reads at
// resourceVersion "0" or NotOlderThan, from an in-memory cache of one
// resource, fed by a single watch of the underlying storage. Writes,
// consistent reads (resourceVersion "") and exact-revision reads go to the
// underlying storage unchanged.
//
// A Cacher does nothing until Start; until its first list completes,
// requests served from the cache wait (bounded by their ctx). It is safe
// for concurrent use. Objects returned from the cache are shared: callers
// must not modify them.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher).
type Cacher struct {
	storage        storage.Interface
	resourcePrefix string
	newFunc        func() runtime.Object
	getAttrs       storage.AttrFunc
	// indexNames are the Indexers' names, sorted; indexFuncs[i] is
	// indexNames[i]'s.
	indexNames        []string
	indexFuncs        []IndexFunc
	clock             clock.Clock
	requestClock      clock.Clock
	logger            *slog.Logger
	tracer            trace.Tracer
	revisions         *tracing.Revisions
	bookmarkFrequency time.Duration

	watchCache *watchCache
	ready      *ready
	progress   *progressRequester
	// incomingCh (upstream: incoming) carries events from the reflector to
	// the dispatcher, in revision order.
	incomingCh chan *watchCacheEvent
	// syncCh carries SyncWatchers calls to the dispatcher, which alone
	// knows how far the watchers have been given events.
	syncCh chan *syncRequest
	// budget belongs to the dispatcher goroutine.
	budget *timeBudget

	// mu guards watchers, started and stopped. It is never held while
	// sending to a watcher or calling storage.
	mu       sync.Mutex
	watchers *indexedWatchers
	started  bool
	// stopped is set when Start's ctx is done: no watcher registers after.
	stopped bool

	// wg counts every goroutine the Cacher starts: reflector, dispatcher
	// and one per watcher.
	wg sync.WaitGroup
}

var _ storage.Interface = (*Cacher)(nil)

// New validates opts and returns a Cacher; call Start to run it.
func New(opts Options) (*Cacher, error) {
	switch {
	case opts.Storage == nil:
		return nil, errors.New("watchcache: Options.Storage is required")
	case opts.NewFunc == nil:
		return nil, errors.New("watchcache: Options.NewFunc is required")
	case !strings.HasPrefix(opts.ResourcePrefix, "/") || len(opts.ResourcePrefix) < 2 || strings.HasSuffix(opts.ResourcePrefix, "/"):
		return nil, fmt.Errorf("watchcache: Options.ResourcePrefix %q must be \"/<resource>\", without a trailing slash", opts.ResourcePrefix)
	case opts.Capacity < 0:
		return nil, fmt.Errorf("watchcache: Options.Capacity %d is negative", opts.Capacity)
	case opts.BookmarkFrequency < 0 || opts.DispatchTimeoutBudget < 0:
		return nil, errors.New("watchcache: durations in Options must not be negative")
	}
	if _, err := metav1.Accessor(opts.NewFunc()); err != nil {
		return nil, fmt.Errorf("watchcache: Options.NewFunc: %w", err)
	}
	c := &Cacher{
		storage:           opts.Storage,
		resourcePrefix:    opts.ResourcePrefix,
		newFunc:           opts.NewFunc,
		getAttrs:          opts.GetAttrs,
		clock:             opts.Clock,
		requestClock:      opts.RequestClock,
		bookmarkFrequency: opts.BookmarkFrequency,
		ready:             newReady(),
		incomingCh:        make(chan *watchCacheEvent, incomingBufferSize),
		syncCh:            make(chan *syncRequest),
		watchers:          newIndexedWatchers(),
	}
	if c.getAttrs == nil {
		c.getAttrs = storage.DefaultAttrs
	}
	if c.clock == nil {
		c.clock = clock.Real
	}
	if c.requestClock == nil {
		c.requestClock = clock.Real
	}
	if c.bookmarkFrequency == 0 {
		c.bookmarkFrequency = defaultBookmarkFrequency
	}
	budget := opts.DispatchTimeoutBudget
	if budget == 0 {
		budget = defaultDispatchTimeoutBudget
	}
	c.budget = newTimeBudget(c.clock, budget)
	for name, f := range opts.Indexers {
		if f == nil {
			return nil, fmt.Errorf("watchcache: Options.Indexers[%q] is nil", name)
		}
		c.indexNames = append(c.indexNames, name)
	}
	slices.Sort(c.indexNames)
	for _, name := range c.indexNames {
		c.indexFuncs = append(c.indexFuncs, opts.Indexers[name])
	}
	c.logger = logging.OrDiscard(opts.Logger).With("component", "watchcache", "resource", opts.ResourcePrefix)
	c.tracer, c.revisions = opts.Tracing.Tracer("apiserver"), opts.Tracing.Revisions()
	c.watchCache = newWatchCache(c.clock, opts.Capacity, c.indexNames)
	c.progress = newProgressRequester(opts.Storage, c.requestClock)
	return c, nil
}

// Start runs the Cacher: it lists and watches the underlying storage and
// serves watchers until ctx is done. It blocks until then, and until every
// goroutine it started has exited; it returns nil, or an error at once if
// called twice. Shutdown, in order:
//
//  1. the Cacher is marked stopped: no watch registers any more, and
//     requests waiting for the cache get ErrStopped;
//  2. every watcher is stopped: its result channel closes, and the
//     dispatcher, if it was waiting for one, moves on;
//  3. Start waits for the reflector (which stops its storage watch), the
//     dispatcher and every watcher's goroutine.
func (c *Cacher) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return errors.New("watchcache: Start called more than once")
	}
	c.started = true
	c.mu.Unlock()
	// The storage watch and its progress requests get a stream of their
	// own, named after this Cacher (see storage.WithWatchStream).
	ctx = storage.WithWatchStream(ctx, fmt.Sprintf("%s@%p", c.resourcePrefix, c))
	c.progress.setContext(ctx)

	c.logger.InfoContext(ctx, "starting")
	c.wg.Go(func() { c.runReflector(ctx) })
	c.wg.Go(func() { c.dispatchEvents(ctx) })
	<-ctx.Done()

	c.logger.InfoContext(ctx, "stopping")
	c.mu.Lock()
	c.stopped = true
	c.ready.set(stateStopped)
	watchers := c.watchers.removeAll()
	c.mu.Unlock()
	for _, w := range watchers {
		w.stop()
	}
	c.wg.Wait()
	c.logger.InfoContext(ctx, "stopped")
	return nil
}

// Ready returns a channel that is closed once the cache has listed the
// resource for the first time: what /readyz reports. It stays closed
// while a later relist runs (requests wait for that one themselves).
func (c *Cacher) Ready() <-chan struct{} { return c.ready.synced() }

// WaitReady blocks until the cache is ready to serve (nil), the Cacher is
// stopped (ErrStopped) or ctx is done (its error).
func (c *Cacher) WaitReady(ctx context.Context) error { return c.ready.wait(ctx) }

// Count returns how many objects the cache holds now: the API server's
// apiserver_storage_objects, read without asking etcd. It is 0 until the
// first list completes.
func (c *Cacher) Count() int {
	c.watchCache.mu.RLock()
	defer c.watchCache.mu.RUnlock()
	return c.watchCache.store.len()
}

// Create is the underlying storage's Create.
func (c *Cacher) Create(ctx context.Context, key string, obj runtime.Object) (runtime.Object, error) {
	return c.storage.Create(ctx, key, obj)
}

// GuaranteedUpdate is the underlying storage's GuaranteedUpdate, started
// from the cache's copy of the object when the cache has one
// (opts.CachedExistingObject; a caller's own is ignored): most updates
// then skip storage's read, and one whose copy proves stale costs storage
// one more round trip, never a different result. It does not wait for the
// cache to be ready: without a copy, storage reads as it always does.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.GuaranteedUpdate).
func (c *Cacher) GuaranteedUpdate(ctx context.Context, key string, opts storage.UpdateOptions, tryUpdate storage.UpdateFunc) (runtime.Object, error) {
	opts.CachedExistingObject = nil
	wc := c.watchCache
	wc.mu.RLock()
	e, ok := wc.store.get(key)
	wc.mu.RUnlock()
	if ok {
		// A copy: storage takes ownership of it (it clears the
		// resourceVersion to encode it), and the cache's object is shared.
		opts.CachedExistingObject = e.Object.DeepCopyObject()
	}
	return c.storage.GuaranteedUpdate(ctx, key, opts, tryUpdate)
}

// Delete is the underlying storage's Delete.
func (c *Cacher) Delete(ctx context.Context, key string, opts storage.DeleteOptions) (runtime.Object, error) {
	return c.storage.Delete(ctx, key, opts)
}

// becomePending is the reflector's step when its watch fails: the cache
// stops serving until it has relisted, and every watcher is closed so its
// client watches again (from a revision the new window holds, or to a
// 410 and a relist of its own). Under mu, so no watch registers against
// the old state after its watchers were closed.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.terminateAllWatchers).
func (c *Cacher) becomePending() {
	c.mu.Lock()
	c.ready.set(statePending)
	watchers := c.watchers.removeAll()
	c.mu.Unlock()
	for _, w := range watchers {
		w.stop()
	}
}

// forget removes w from the watchers; every watcher's goroutine calls it
// on its way out.
func (c *Cacher) forget(w *cacheWatcher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watchers.remove(w)
}

// newElement builds the store element of obj: its key (from its namespace
// and name) and what selectors and indexes match on.
func (c *Cacher) newElement(obj runtime.Object) (*storeElement, error) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, err
	}
	var key string
	if meta.Namespace != "" {
		key, err = storage.NamespaceKey(c.resourcePrefix, meta.Namespace, meta.Name)
	} else {
		key, err = storage.ClusterKey(c.resourcePrefix, meta.Name)
	}
	if err != nil {
		return nil, err
	}
	ls, fs, err := c.getAttrs(obj)
	if err != nil {
		return nil, fmt.Errorf("attributes of %s: %w", key, err)
	}
	e := &storeElement{Key: key, Object: obj, Labels: ls, Fields: fs}
	if len(c.indexFuncs) > 0 {
		e.IndexValues = make([][]string, len(c.indexFuncs))
		for i, f := range c.indexFuncs {
			if e.IndexValues[i], err = f(obj); err != nil {
				return nil, fmt.Errorf("index %s of %s: %w", c.indexNames[i], key, err)
			}
		}
	}
	return e, nil
}
