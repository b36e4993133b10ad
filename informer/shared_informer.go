package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// minimumResyncPeriod is the shortest resync a handler can ask for:
// resyncing more often than every second only burns CPU re-delivering
// unchanged objects.
const minimumResyncPeriod = time.Second

// SharedInformerOptions configures NewSharedInformer.
type SharedInformerOptions struct {
	// ListerWatcher is the resource's source. Required.
	ListerWatcher ListerWatcher
	// Name names the resource in logs, such as "pods".
	Name string
	// ResyncPeriod is the resync of handlers whose HandlerOptions give
	// none; 0 means no resync.
	ResyncPeriod time.Duration
	// Indexers are added to the Indexer next to NamespaceIndex.
	Indexers Indexers
	// LabelSelector and FieldSelector restrict what the informer sees.
	LabelSelector string
	FieldSelector string
	// Backoff defaults to DefaultReflectorBackoff.
	Backoff *wait.Backoff
	// WatchErrorHandler is the Reflector's (see ReflectorOptions).
	WatchErrorHandler func(err error)
	// Clock defaults to clock.Real; it drives resync and backoff.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
	// Tracing, when set, records the delivery of each change a traced
	// write made as an informer.delta span of Component, linked to the
	// write. Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
	// Component names the informer's owner in traces ("scheduler",
	// "kubelet/node-1"), so a learner reads "the scheduler's pods
	// informer". Defaults to "informer".
	Component string
}

// SharedInformer keeps an Indexer of one resource in step with the API
// server through one Reflector, and tells any number of handlers about
// each change. Each handler has its own listener (see processorListener),
// so a slow handler never delays the others, and its own resync period.
//
// The changes flow, on one goroutine, from the DeltaFIFO to the Indexer
// and then to the listeners; mu is held across both steps for each delta,
// so a handler added at any time sees the Indexer's state and then every
// change after it, nothing twice and nothing lost.
//
// Upstream: k8s.io/client-go/tools/cache (sharedIndexInformer,
// sharedProcessor).
type SharedInformer struct {
	name          string
	lw            ListerWatcher
	labelSelector string
	fieldSelector string
	backoff       *wait.Backoff
	onWatchError  func(err error)
	defaultResync time.Duration
	clock         clock.Clock
	log           *slog.Logger
	tracer        trace.Tracer
	revisions     *tracing.Revisions
	indexer       *Indexer
	fifo          *DeltaFIFO
	// progress is notified when the reflector's resourceVersion moves;
	// WaitSyncedTo waits on it and on the FIFO.
	progress wait.Broadcast

	// mu guards the fields below, and is held while a change is applied to
	// the Indexer and handed to the listeners.
	mu        sync.Mutex
	listeners []*processorListener
	// syncing are the listeners due for the current resync.
	syncing []*processorListener
	// resyncCheckPeriod is how often the Reflector resyncs: the shortest
	// handler period, fixed at Start.
	resyncCheckPeriod time.Duration
	started, stopped  bool
	synced            bool
	reflector         *Reflector
	// runCtx is Start's context, for listeners added after Start.
	runCtx context.Context
	// listenersWG counts listener goroutines; Add only under mu and
	// before stopped, Wait only after stopped.
	listenersWG sync.WaitGroup
}

// NewSharedInformer validates opts and returns an informer that is not
// running.
func NewSharedInformer(opts SharedInformerOptions) (*SharedInformer, error) {
	if opts.ListerWatcher == nil {
		return nil, errors.New("informer: ListerWatcher is required")
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.ResyncPeriod > 0 && opts.ResyncPeriod < minimumResyncPeriod {
		opts.ResyncPeriod = minimumResyncPeriod
	}
	if opts.Component == "" {
		opts.Component = "informer"
	}
	indexer := NewIndexer(MetaNamespaceKeyFunc, nil)
	if err := indexer.AddIndexers(opts.Indexers); err != nil {
		return nil, err
	}
	return &SharedInformer{
		name:              opts.Name,
		lw:                opts.ListerWatcher,
		labelSelector:     opts.LabelSelector,
		fieldSelector:     opts.FieldSelector,
		backoff:           opts.Backoff,
		onWatchError:      opts.WatchErrorHandler,
		defaultResync:     opts.ResyncPeriod,
		resyncCheckPeriod: opts.ResyncPeriod,
		clock:             opts.Clock,
		log:               logging.OrDiscard(opts.Logger).With("component", "informer", "resource", opts.Name),
		tracer:            opts.Tracing.Tracer(opts.Component),
		revisions:         opts.Tracing.Revisions(),
		indexer:           indexer,
		fifo:              NewDeltaFIFO(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, KnownObjects: indexer}),
	}, nil
}

// Indexer returns the informer's store. It is filled by the informer;
// read it, never write it.
func (s *SharedInformer) Indexer() *Indexer { return s.indexer }

// AddIndexers adds indices to the Indexer.
func (s *SharedInformer) AddIndexers(indexers Indexers) error { return s.indexer.AddIndexers(indexers) }

// HasSynced reports whether the Indexer holds the first LIST's state.
func (s *SharedInformer) HasSynced() bool {
	select {
	case <-s.fifo.Synced():
		return true
	default:
		return false
	}
}

// Synced returns a channel closed once HasSynced holds.
func (s *SharedInformer) Synced() <-chan struct{} { return s.fifo.Synced() }

// WaitForSync blocks until HasSynced or ctx ends (returning ctx's error).
func (s *SharedInformer) WaitForSync(ctx context.Context) error {
	select {
	case <-s.fifo.Synced():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("informer %s: wait for sync: %w", s.name, ctx.Err())
	}
}

// LastSyncResourceVersion is the resourceVersion the Indexer is in step
// with (once the deltas queued so far are processed); "" before Start.
func (s *SharedInformer) LastSyncResourceVersion() string {
	s.mu.Lock()
	r := s.reflector
	s.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

// AddEventHandler adds a handler. Before Start it receives the first
// LIST's objects as adds like every other handler; after Start it first
// receives the Indexer's current objects as adds (isInInitialList true),
// then every later change. It fails once the informer has stopped.
func (s *SharedInformer) AddEventHandler(h ResourceEventHandler, opts HandlerOptions) (*Registration, error) {
	period := s.defaultResync
	if opts.ResyncPeriod != nil {
		period = *opts.ResyncPeriod
	}
	if period > 0 && period < minimumResyncPeriod {
		period = minimumResyncPeriod
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("informer %s: stopped: handler not added", s.name)
	}
	if period > 0 {
		switch {
		case !s.started && (s.resyncCheckPeriod == 0 || period < s.resyncCheckPeriod):
			s.resyncCheckPeriod = period
		case s.started && period < s.resyncCheckPeriod:
			s.log.Warn("resync period shorter than the started informer's check period: raised", "period", period,
				"checkPeriod", s.resyncCheckPeriod)
			period = s.resyncCheckPeriod
		}
	}
	l := newProcessorListener(h, period, s.clock.Now(), s.log)
	s.listeners = append(s.listeners, l)
	if s.started {
		for _, obj := range s.indexer.List() {
			l.add(notification{kind: addNotification, newObj: obj, isInInitialList: true})
		}
		if s.synced {
			l.add(notification{kind: syncedNotification})
		}
		s.startListenerLocked(l)
	}
	return &Registration{listener: l}, nil
}

// RemoveEventHandler stops a handler's listener; notifications still
// pending for it are dropped. Removing it twice is a no-op.
func (s *SharedInformer) RemoveEventHandler(r *Registration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, l := range s.listeners {
		if l == r.listener {
			s.listeners = append(s.listeners[:i], s.listeners[i+1:]...)
			if l.cancel != nil {
				l.cancel()
			}
			return nil
		}
	}
	return nil
}

// startListenerLocked starts l's goroutine under runCtx.
func (s *SharedInformer) startListenerLocked(l *processorListener) {
	ctx, cancel := context.WithCancel(s.runCtx)
	l.cancel = cancel
	s.listenersWG.Go(func() {
		defer cancel()
		l.run(ctx)
	})
}

// Start runs the informer until ctx is done: the Reflector, the loop from
// the DeltaFIFO to the Indexer and listeners, and one goroutine per
// handler. It returns after all of them have exited, and fails at once if
// the informer was started before.
//
// Shutdown, when ctx ends:
//
//  1. the Reflector stops listing and watching;
//  2. the processing loop stops popping deltas;
//  3. no handler can be added any more;
//  4. every listener stops, dropping what it had not delivered.
func (s *SharedInformer) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return fmt.Errorf("informer %s: already started", s.name)
	}
	r, err := NewReflector(ReflectorOptions{
		Name: s.name, ListerWatcher: s.lw, Store: s.fifo,
		LabelSelector: s.labelSelector, FieldSelector: s.fieldSelector,
		ResyncPeriod: s.resyncCheckPeriod, ShouldResync: s.shouldResync,
		Backoff: s.backoff, WatchErrorHandler: s.onWatchError, Clock: s.clock, Logger: s.log,
		Progress: &s.progress,
	})
	if err != nil {
		s.mu.Unlock()
		return err
	}
	s.started, s.reflector, s.runCtx = true, r, ctx
	for _, l := range s.listeners {
		s.startListenerLocked(l)
	}
	s.mu.Unlock()

	var wg sync.WaitGroup
	wg.Go(func() { _ = r.Start(ctx) })
	wg.Go(func() { s.processLoop(ctx) })
	wg.Go(func() { s.announceSynced(ctx) })
	wg.Wait()

	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.listenersWG.Wait()
	return nil
}

// processLoop pops deltas until ctx ends.
func (s *SharedInformer) processLoop(ctx context.Context) {
	for {
		err := s.fifo.Pop(ctx, s.handleDeltas)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.log.WarnContext(ctx, "processing deltas failed", "err", err)
		}
	}
}

// announceSynced waits for the first LIST to be processed, then tells
// every listener present, behind the notifications it already has.
func (s *SharedInformer) announceSynced(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case <-s.fifo.Synced():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.synced = true
	for _, l := range s.listeners {
		l.add(notification{kind: syncedNotification})
	}
	s.log.InfoContext(ctx, "synced", "objects", len(s.indexer.ListKeys()))
}

// handleDeltas applies one object's deltas to the Indexer and the
// listeners.
//
// Upstream: k8s.io/client-go/tools/cache (processDeltas).
func (s *SharedInformer) handleDeltas(deltas Deltas, isInInitialList bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range deltas {
		if err := s.handleDeltaLocked(d, isInInitialList); err != nil {
			return err
		}
	}
	return nil
}

func (s *SharedInformer) handleDeltaLocked(d Delta, isInInitialList bool) error {
	if d.Type == Deleted {
		if err := s.indexer.Delete(d.Object); err != nil {
			return err
		}
		end := s.traceDelta(d)
		s.distributeLocked(notification{kind: deleteNotification, deleted: d.Object}, false)
		end()
		return nil
	}
	obj, ok := d.Object.(runtime.Object)
	if !ok {
		return fmt.Errorf("informer %s: %s delta carries %T", s.name, d.Type, d.Object)
	}
	old, exists, err := s.indexer.Get(obj)
	if err != nil {
		return err
	}
	if !exists {
		if err := s.indexer.Add(obj); err != nil {
			return err
		}
		end := s.traceDelta(d)
		s.distributeLocked(notification{kind: addNotification, newObj: obj, isInInitialList: isInInitialList}, false)
		end()
		return nil
	}
	if err := s.indexer.Update(obj); err != nil {
		return err
	}
	// A relist re-delivers every object; one whose resourceVersion did not
	// change is no update, only a resync for the listeners due one.
	isSync := d.Type == Sync ||
		d.Type == Replaced && metav1.MustAccessor(old).ResourceVersion == metav1.MustAccessor(obj).ResourceVersion
	end := s.traceDelta(d)
	s.distributeLocked(notification{kind: updateNotification, oldObj: old, newObj: obj}, isSync)
	end()
	return nil
}

// distributeLocked hands n to every listener, or for a resync only to the
// listeners due one.
func (s *SharedInformer) distributeLocked(n notification, isSync bool) {
	targets := s.listeners
	if isSync {
		targets = s.syncing
	}
	for _, l := range targets {
		l.add(n)
	}
}

// shouldResync is the Reflector's ShouldResync: it picks the listeners due
// a resync now.
//
// Upstream: k8s.io/client-go/tools/cache (sharedProcessor.shouldResync).
func (s *SharedInformer) shouldResync() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	s.syncing = s.syncing[:0]
	for _, l := range s.listeners {
		if l.shouldResyncLocked(now) {
			s.syncing = append(s.syncing, l)
		}
	}
	return len(s.syncing) > 0
}

// traceDelta records one change as the informer.delta hop: a Debug
// record, and, when a traced write made it, a span linked to the write,
// which the returned func ends once the change is handed to the
// listeners.
func (s *SharedInformer) traceDelta(d Delta) (end func()) {
	debug := s.log.Enabled(context.Background(), slog.LevelDebug)
	if !debug && s.revisions == nil {
		return func() {}
	}
	obj := d.Object
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	var meta *metav1.ObjectMeta
	if ro, ok := obj.(runtime.Object); ok {
		meta, _ = metav1.Accessor(ro)
	}
	if debug {
		attrs := []any{"hop", tracing.HopInformerDelta, "type", string(d.Type)}
		if meta != nil {
			attrs = append(attrs, "namespace", meta.Namespace, "name", meta.Name, "rv", meta.ResourceVersion)
		}
		s.log.Debug("delta", attrs...)
	}
	if meta == nil {
		return func() {}
	}
	rev, _ := strconv.ParseInt(meta.ResourceVersion, 10, 64)
	link, ok := s.revisions.Link(rev)
	if !ok {
		return func() {}
	}
	_, span := s.tracer.Start(context.Background(), tracing.HopInformerDelta, trace.WithLinks(link),
		trace.WithAttributes(tracing.KeyInformer.String(s.name), attribute.String("type", string(d.Type)),
			tracing.KeyNamespace.String(meta.Namespace), tracing.KeyName.String(meta.Name), tracing.KeyRV.Int64(rev)))
	return func() { span.End() }
}
