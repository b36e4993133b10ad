package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// ListerWatcher lists and watches one resource.
// client.Resource[metav1.Object, metav1.ListInterface] implements it.
//
// Upstream: k8s.io/client-go/tools/cache (ListerWatcher).
type ListerWatcher interface {
	List(ctx context.Context, opts client.ListOptions) (metav1.ListInterface, error)
	Watch(ctx context.Context, opts client.ListOptions) (watch.Interface, error)
}

// The generic typed client is what factories hand their informers.
var _ ListerWatcher = (*client.Resource[metav1.Object, metav1.ListInterface])(nil)

// ReflectorStore is the subset of the DeltaFIFO the Reflector writes.
//
// Upstream: k8s.io/client-go/tools/cache (ReflectorStore).
type ReflectorStore interface {
	Add(obj runtime.Object) error
	Update(obj runtime.Object) error
	Delete(obj any) error
	Replace(list []runtime.Object, rv string) error
	Resync() error
}

// DefaultReflectorBackoff is the backoff between failed list-watch
// attempts: 800ms doubling to 30s, with up to 100% jitter. The first
// retry is quick because most failures are one lost connection; the cap
// keeps a client of a down server polling gently; the jitter spreads the
// relists of many clients that lost the same server.
//
// Upstream: k8s.io/client-go/tools/cache (NewReflectorWithOptions:
// NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)).
var DefaultReflectorBackoff = wait.Backoff{
	Initial: 800 * time.Millisecond,
	Factor:  2.0,
	Jitter:  1.0,
	Cap:     30 * time.Second,
	Reset:   backoffResetAfter,
}

// backoffResetAfter is how long a Reflector must go without backing off
// before its backoff starts again from the beginning: a failure after a
// long healthy run is a new incident, not the next step of the last one.
// A Backoff from the Options without a Reset gets this one.
const backoffResetAfter = 2 * time.Minute

// defaultMinWatchTimeout is the shortest watch a Reflector asks for; each
// asks for a random duration between it and twice it, so the watches of
// many clients do not all end (and restart) at once.
const defaultMinWatchTimeout = 5 * time.Minute

// minHealthyWatch is how long a watch that delivered nothing must last to
// count as healthy; a shorter one is an error, so a server that closes
// watches at once is retried with backoff instead of in a hot loop.
const minHealthyWatch = time.Second

var _ ReflectorStore = (*DeltaFIFO)(nil)

// ReflectorOptions configures NewReflector.
type ReflectorOptions struct {
	// Name names the reflector in logs, such as the resource. Defaults to
	// "reflector".
	Name string
	// ListerWatcher is the source. Required.
	ListerWatcher ListerWatcher
	// Store receives the changes. Required.
	Store ReflectorStore
	// LabelSelector and FieldSelector restrict every list and watch.
	LabelSelector string
	FieldSelector string
	// ResyncPeriod is how often Store.Resync is called while a
	// ListAndWatch runs; 0 means never.
	ResyncPeriod time.Duration
	// ShouldResync, when set, is asked before each resync.
	ShouldResync func() bool
	// Backoff is the backoff between failures. Defaults to
	// DefaultReflectorBackoff; its Clock is replaced by Clock.
	Backoff *wait.Backoff
	// WatchErrorHandler, when set, is called with each error that ended a
	// list-watch (a 410 Gone included), on the reflector's goroutine,
	// before it backs off or relists; it must not block. The error is
	// logged either way. A 404 NotFound says the resource is no longer
	// served: the caller may stop the reflector.
	//
	// Upstream: k8s.io/client-go/tools/cache (WatchErrorHandler).
	WatchErrorHandler func(err error)
	// MinWatchTimeout defaults to 5 minutes; see defaultMinWatchTimeout.
	MinWatchTimeout time.Duration
	// Progress, when set, is notified each time LastSyncResourceVersion
	// changes, after the change is in Store, and when BackingOff changes,
	// so a caller can wait for the store to reach a resourceVersion
	// (SharedInformer.WaitSyncedTo).
	Progress *wait.Broadcast
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// Reflector keeps a store in step with a resource: it lists, then watches
// from the list's resourceVersion, and repeats as needed:
//
//	        +---------- 410 Gone/Expired ----------+
//	        v                                      |
//	     [LIST] --ok--> [WATCH from last rv] --event: store, rv = event's rv
//	      ^  |              |      ^    |
//	error |  |error         |      |    +-- stream ended: watch again from rv
//	      |  v              |      +------- refused, 429, cut at once: backoff, watch again
//	    [BACKOFF] <---------+-- any other error
//
// Bookmarks move rv on without changing the store, so a watch restarted
// after a quiet period need not replay history etcd may have compacted.
//
// Upstream: k8s.io/client-go/tools/cache (Reflector).
type Reflector struct {
	name            string
	lw              ListerWatcher
	store           ReflectorStore
	labelSelector   string
	fieldSelector   string
	resyncPeriod    time.Duration
	shouldResync    func() bool
	onWatchError    func(err error)
	minWatchTimeout time.Duration
	clock           clock.Clock
	log             *slog.Logger

	// backoff is used by the goroutine running Start only.
	backoff wait.Backoff

	// progress is ReflectorOptions.Progress; nil means nobody waits.
	progress *wait.Broadcast

	// mu guards lastSyncRV, lastSyncRVUnavailable and backingOff.
	mu         sync.Mutex
	lastSyncRV string
	// lastSyncRVUnavailable is set when a LIST at lastSyncRV failed with
	// 410: the next list must read the latest state instead.
	lastSyncRVUnavailable bool
	// backingOff is set while Start waits out its backoff.
	backingOff bool
}

// NewReflector validates opts and returns a Reflector that is not running.
func NewReflector(opts ReflectorOptions) (*Reflector, error) {
	if opts.ListerWatcher == nil || opts.Store == nil {
		return nil, errors.New("informer: reflector needs a ListerWatcher and a Store")
	}
	if opts.Name == "" {
		opts.Name = "reflector"
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.MinWatchTimeout <= 0 {
		opts.MinWatchTimeout = defaultMinWatchTimeout
	}
	backoff := DefaultReflectorBackoff
	if opts.Backoff != nil {
		backoff = *opts.Backoff
	}
	backoff.Clock = opts.Clock
	if backoff.Reset == 0 {
		backoff.Reset = backoffResetAfter
	}
	return &Reflector{
		name:            opts.Name,
		lw:              opts.ListerWatcher,
		store:           opts.Store,
		labelSelector:   opts.LabelSelector,
		fieldSelector:   opts.FieldSelector,
		resyncPeriod:    opts.ResyncPeriod,
		shouldResync:    opts.ShouldResync,
		onWatchError:    opts.WatchErrorHandler,
		backoff:         backoff,
		minWatchTimeout: opts.MinWatchTimeout,
		progress:        opts.Progress,
		clock:           opts.Clock,
		log:             logging.OrDiscard(opts.Logger).With("component", "reflector", "resource", opts.Name),
	}, nil
}

// LastSyncResourceVersion is the resourceVersion the store is in step
// with: the last list's, event's or bookmark's. "" before the first list.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastSyncRV
}

func (r *Reflector) setLastSyncRV(rv string) {
	r.mu.Lock()
	r.lastSyncRV = rv
	r.mu.Unlock()
	if r.progress != nil {
		r.progress.Notify()
	}
}

// relistResourceVersion is where the next LIST reads: the latest state
// ("", a consistent read) the first time and once the last version was
// refused with 410, otherwise no older than the last resourceVersion seen,
// so the store never goes back in time.
//
// client-go reads "0" the first time, which the watch cache may serve from
// a state a moment old. minicp reads consistently instead, so HasSynced
// means every object written before the informer started is in its store:
// what a test waiting for sync expects. The cost is one read from etcd per
// informer start.
//
// Upstream: k8s.io/client-go/tools/cache (Reflector.relistResourceVersion).
func (r *Reflector) relistResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastSyncRVUnavailable {
		return ""
	}
	return r.lastSyncRV
}

// BackingOff reports whether the reflector is waiting out its backoff
// after a failed list or watch: waiting for its clock, which on a fake
// clock only a step ends.
func (r *Reflector) BackingOff() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.backingOff
}

func (r *Reflector) setBackingOff(v bool) {
	r.mu.Lock()
	r.backingOff = v
	r.mu.Unlock()
	if r.progress != nil {
		r.progress.Notify()
	}
}

func (r *Reflector) setLastSyncRVUnavailable(v bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSyncRVUnavailable = v
}

// Start runs ListAndWatch until ctx is done, relisting at once after a 410
// and after backoff after any other error. It returns nil once ctx is
// done and every goroutine it started has exited.
func (r *Reflector) Start(ctx context.Context) error {
	r.log.InfoContext(ctx, "starting")
	defer r.log.InfoContext(ctx, "stopped")
	for {
		err := r.ListAndWatch(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if r.onWatchError != nil {
			r.onWatchError(err)
		}
		if apierrors.IsGone(err) {
			r.log.InfoContext(ctx, "watch expired, relisting", "err", err)
			continue
		}
		r.log.WarnContext(ctx, "list-watch failed", "err", err)
		r.setBackingOff(true)
		err = r.backoff.Wait(ctx)
		r.setBackingOff(false)
		if err != nil {
			return nil
		}
	}
}

// ListAndWatch lists, replaces the store's content, then watches until an
// error or ctx ends it; a watch that merely ends is restarted from the
// last resourceVersion. It returns nil when ctx is done, and otherwise the
// error that ended it: apierrors.IsGone means relist now. Start calls it
// in a loop; it must not run concurrently with Start or with itself.
//
// Upstream: k8s.io/client-go/tools/cache (Reflector.ListAndWatch).
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	if err := r.list(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// Stop the resync goroutine before returning: cancel first, then wait.
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { r.resyncLoop(ctx) })

	for {
		err := r.watch(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err == nil {
			continue // the stream ended: watch again from lastSyncRV
		}
		if !retryWatchOnly(err) {
			return err
		}
		r.log.WarnContext(ctx, "watch failed, retrying", "err", err)
		if r.backoff.Wait(ctx) != nil {
			return nil
		}
	}
}

// retryWatchOnly reports errors after which watching again from the same
// resourceVersion, after backoff, is right: the server could not be
// reached, asked us to come back later, or cut the watch at once (it is
// going away). The store is still in step at lastSyncRV, and if the
// server no longer has it, the next watch says so with a 410. Relisting
// would only add load. Any other Status error, and an event the store
// cannot take, relists.
func retryWatchOnly(err error) bool {
	if errors.Is(err, errEventObject) {
		return false
	}
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return apierrors.IsTooManyRequests(err)
	}
	// Not a Status: the request never got an answer (connection refused,
	// reset, DNS), or errShortWatch.
	return true
}

// list reads the whole resource, page by page, and replaces the store's
// content with it.
func (r *Reflector) list(ctx context.Context) error {
	rv := r.relistResourceVersion()
	items, listRV, err := r.listPages(ctx, rv, listPageSize)
	if err != nil && rv != "" && apierrors.IsGone(err) {
		// The server no longer has rv: read the latest state instead.
		r.setLastSyncRVUnavailable(true)
		items, listRV, err = r.listPages(ctx, "", listPageSize)
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", r.name, err)
	}
	r.setLastSyncRVUnavailable(false)
	// Record listRV first: once Replace returns, the informer may report
	// synced, and LastSyncResourceVersion must not lag behind that.
	r.setLastSyncRV(listRV)
	if err := r.store.Replace(items, listRV); err != nil {
		return fmt.Errorf("list %s: replace: %w", r.name, err)
	}
	r.log.DebugContext(ctx, "listed", "rv", listRV, "items", len(items))
	return nil
}

// listOptions adds the reflector's selectors to opts.
func (r *Reflector) listOptions(opts client.ListOptions) client.ListOptions {
	opts.LabelSelector = r.labelSelector
	opts.FieldSelector = r.fieldSelector
	return opts
}

var (
	// errShortWatch is a watch that ended quickly without delivering
	// anything (see minHealthyWatch).
	errShortWatch = errors.New("very short watch: the server closed it at once without events")
	// errEventObject is a watch event whose object has no metadata.
	errEventObject = errors.New("watch event object has no metadata")
)

// watch runs one watch from lastSyncRV until it ends. It returns nil when
// the stream ended normally, the Status error of an Error event, or the
// error that prevented the watch.
//
// Upstream: k8s.io/client-go/tools/cache (watchHandler).
func (r *Reflector) watch(ctx context.Context) error {
	timeout := int64(r.minWatchTimeout.Seconds() * (1 + rand.Float64()))
	start := r.clock.Now()
	w, err := r.lw.Watch(ctx, r.listOptions(client.ListOptions{
		ResourceVersion:     r.LastSyncResourceVersion(),
		TimeoutSeconds:      &timeout,
		AllowWatchBookmarks: true,
	}))
	if err != nil {
		return err
	}
	defer w.Stop()
	events := 0
	for {
		var ev watch.Event
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case ev, ok = <-w.ResultChan():
		}
		if !ok {
			if events == 0 && r.clock.Since(start) < minHealthyWatch {
				return errShortWatch
			}
			return nil
		}
		if ev.Type == watch.Error {
			if st, ok := ev.Object.(*metav1.Status); ok {
				return apierrors.FromStatus(*st)
			}
			return fmt.Errorf("watch %s: error event carries %T", r.name, ev.Object)
		}
		meta, err := metav1.Accessor(ev.Object)
		if err != nil {
			return fmt.Errorf("watch %s: %w: %v", r.name, errEventObject, err)
		}
		events++
		switch ev.Type {
		case watch.Added:
			err = r.store.Add(ev.Object)
		case watch.Modified:
			err = r.store.Update(ev.Object)
		case watch.Deleted:
			err = r.store.Delete(ev.Object)
		case watch.Bookmark:
		default:
			err = fmt.Errorf("unknown watch event type %q", ev.Type)
		}
		if err != nil {
			// The store refused one object; the rest of the stream is
			// still good, and a relist would be refused the same way.
			r.log.WarnContext(ctx, "store refused a watch event", "err", err, "name", meta.Name)
		}
		r.setLastSyncRV(meta.ResourceVersion)
	}
}

// resyncLoop calls Store.Resync every resyncPeriod until ctx ends.
func (r *Reflector) resyncLoop(ctx context.Context) {
	if r.resyncPeriod <= 0 {
		return
	}
	for {
		timer := r.clock.NewTimer(r.resyncPeriod)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
		}
		if r.shouldResync != nil && !r.shouldResync() {
			continue
		}
		if err := r.store.Resync(); err != nil {
			r.log.WarnContext(ctx, "resync failed", "err", err)
		}
	}
}
