package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

// ComponentName is the collector's name in the events it records, as
// upstream.
const ComponentName = "garbage-collector-controller"

// DefaultWorkers is how many items of each queue are processed at once
// unless Options.Workers says otherwise: kube-controller-manager's
// --concurrent-gc-syncs default. Workers mostly wait for the API server,
// so many are cheap.
const DefaultWorkers = 20

// DefaultIgnoredResources returns the resources the collector does not
// watch unless Options.IgnoredResources says otherwise: events, which are
// many, change often, and own nothing.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (DefaultIgnoredResources).
func DefaultIgnoredResources() []runtime.GroupResource {
	return []runtime.GroupResource{{Group: "", Resource: "events"}, {Group: "events.k8s.io", Resource: "events"}}
}

// Options configures New. The zero Options works.
type Options struct {
	// Workers is how many attemptToDelete items, and how many
	// attemptToOrphan items, are processed at once. Defaults to
	// DefaultWorkers.
	Workers int
	// IgnoredResources are not watched: their objects are never collected
	// and count as absent owners. Defaults to DefaultIgnoredResources().
	IgnoredResources []runtime.GroupResource
}

// GarbageCollector deletes the objects whose owners are gone, and carries
// out the Foreground and Orphan propagation policies, for every resource
// of the scheme that can be listed, watched and deleted. Its graph builder
// keeps the ownership graph from the manager's shared informers; its two
// controllers work the queues the graph builder fills:
//
//	informers -> graph builder (graphChanges, one goroutine) -> attemptToDelete -> workers -> DELETE, PATCH
//	                                                         -> attemptToOrphan -> workers -> PATCH
//
// A queued item is a node's uid (in the Request's Name): workers read the
// node from the graph, and the object itself from the API server, never
// from the cache, before they delete anything.
//
// It is a manager.Runnable that runs on the leader only, and a
// manager.Idler. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector).
type GarbageCollector struct {
	client           *client.Client
	scheme           *runtime.Scheme
	log              *slog.Logger
	graph            *graphBuilder
	absentOwnerCache *referenceCache
	deleteController *controller.Controller
	orphanController *controller.Controller
}

var (
	_ manager.Runnable               = (*GarbageCollector)(nil)
	_ manager.LeaderElectionRunnable = (*GarbageCollector)(nil)
	_ manager.Idler                  = (*GarbageCollector)(nil)
)

// Add adds a GarbageCollector with the default Options to mgr: the
// controllermanager.AddFunc of the "garbage-collector-controller".
func Add(mgr *manager.Manager) error {
	gc, err := New(mgr, Options{})
	if err != nil {
		return err
	}
	return mgr.Add(gc)
}

// New returns a collector over mgr's client and cache, and asks the cache
// for the informer of every resource it watches, so that they start (and
// sync) with the manager. The caller adds it to mgr (see Add).
func New(mgr *manager.Manager, opts Options) (*GarbageCollector, error) {
	if mgr == nil {
		return nil, errors.New("garbage collector: nil manager")
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("garbage collector: Workers %d is negative", opts.Workers)
	}
	if opts.Workers == 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.IgnoredResources == nil {
		opts.IgnoredResources = DefaultIgnoredResources()
	}
	log := mgr.GetLogger().With("component", "garbage-collector")
	monitors, err := newMonitors(mgr, opts.IgnoredResources)
	if err != nil {
		return nil, err
	}
	gc := &GarbageCollector{
		client:           mgr.GetClient(),
		scheme:           mgr.GetScheme(),
		log:              log,
		absentOwnerCache: newReferenceCache(absentOwnerCacheSize),
	}
	attemptToDelete, attemptToOrphan := newQueueSource(), newQueueSource()
	gc.graph = newGraphBuilder(gc.scheme, mgr.GetEventRecorderFor(ComponentName), log, monitors,
		gc.absentOwnerCache, attemptToDelete, attemptToOrphan)
	if gc.deleteController, err = newQueueController(mgr, "garbage_collector_attempt_to_delete", opts.Workers,
		gc.reconcileAttemptToDelete, attemptToDelete); err != nil {
		return nil, err
	}
	if gc.orphanController, err = newQueueController(mgr, "garbage_collector_attempt_to_orphan", opts.Workers,
		gc.reconcileAttemptToOrphan, attemptToOrphan); err != nil {
		return nil, err
	}
	return gc, nil
}

// newMonitors asks mgr's cache for the informer of every resource that
// supports list, watch and delete and is not ignored.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GetDeletableResources, GraphBuilder.syncMonitors), from discovery;
// minicp's scheme is what discovery serves.
func newMonitors(mgr *manager.Manager, ignored []runtime.GroupResource) ([]*monitor, error) {
	var monitors []*monitor
	for _, info := range mgr.GetScheme().Resources() {
		deletable := info.HasVerb("list") && info.HasVerb("watch") && info.HasVerb("delete")
		// A subresource (pods/status) shares its resource's objects.
		if !deletable || strings.Contains(info.GVR.Resource, "/") || containsGroupResource(ignored, info.GVR.GroupResource()) {
			continue
		}
		inf, err := mgr.GetCache().InformerFor(info.GVR)
		if err != nil {
			return nil, fmt.Errorf("garbage collector: %w", err)
		}
		monitors = append(monitors, &monitor{resource: info, informer: inf, handled: map[string]string{}})
	}
	return monitors, nil
}

func containsGroupResource(list []runtime.GroupResource, gr runtime.GroupResource) bool {
	for _, x := range list {
		if x == gr {
			return true
		}
	}
	return false
}

// newQueueController makes one of the collector's two controllers: its
// only source is the queue the graph builder feeds. The collector starts
// it, so the Manager does not.
func newQueueController(mgr *manager.Manager, name string, workers int, fn reconcile.Func, src *queueSource) (*controller.Controller, error) {
	c, err := controller.NewUnmanaged(name, mgr, controller.Options{MaxConcurrentReconciles: workers, Reconciler: fn})
	if err != nil {
		return nil, fmt.Errorf("garbage collector: %w", err)
	}
	if err := c.Watch(src); err != nil {
		return nil, fmt.Errorf("garbage collector: %w", err)
	}
	return c, nil
}

// Start runs the collector until ctx is done: both controllers, and the
// graph builder once their queues are ready (see graphBuilder.run). It
// returns after all of them stopped, with their errors; if the graph
// builder fails, everything stops.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.Run).
func (gc *GarbageCollector) Start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gc.log.InfoContext(ctx, "starting")
	var wg sync.WaitGroup
	var deleteErr, orphanErr error
	wg.Go(func() { deleteErr = gc.deleteController.Start(ctx) })
	wg.Go(func() { orphanErr = gc.orphanController.Start(ctx) })
	graphErr := gc.graph.run(ctx)
	// The graph builder returns early only when it failed: stop the rest.
	cancel()
	wg.Wait()
	gc.log.InfoContext(ctx, "stopped")
	return errors.Join(graphErr, deleteErr, orphanErr)
}

// NeedLeaderElection implements manager.LeaderElectionRunnable: two
// collectors would race to delete the same objects.
func (gc *GarbageCollector) NeedLeaderElection() bool { return true }

// Idle implements manager.Idler: the graph builder has applied every
// change its informers hold, and both controllers have nothing queued,
// nothing in flight and no delay due.
//
// The three are asked one at a time, so Idle makes sure nothing moved
// between them: only the graph builder feeds the controllers, and only
// while it is busy; the controllers feed the graph builder (virtual
// deletes), which counts every event it receives. A graph builder idle
// before and after, having received nothing, means the controllers were
// not fed meanwhile.
func (gc *GarbageCollector) Idle() (idle bool, changed <-chan struct{}) {
	idle, before, changed := gc.graph.idle()
	if !idle {
		return false, changed
	}
	for _, c := range []*controller.Controller{gc.deleteController, gc.orphanController} {
		if idle, ch := c.Idle(); !idle {
			return false, ch
		}
	}
	idle, after, changed := gc.graph.idle()
	if !idle {
		return false, changed
	}
	if after != before {
		// Something arrived and was handled meanwhile: look again.
		return false, closedCh
	}
	return true, changed
}

// closedCh is a channel that is always closed: "changed already".
var closedCh = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

// queueSource is the source of a collector controller: it hands the
// controller's queue to the graph builder, which adds nodes to it. Start
// keeps it until the controller stops.
type queueSource struct {
	// readyCh is closed once Start has the queue.
	readyCh chan struct{}
	// mu guards q.
	mu sync.Mutex
	q  handler.Queue
}

func newQueueSource() *queueSource { return &queueSource{readyCh: make(chan struct{})} }

// Start implements source.Source.
func (s *queueSource) Start(ctx context.Context, q handler.Queue) error {
	s.mu.Lock()
	if s.q != nil {
		s.mu.Unlock()
		return errors.New("garbage collector: queue source started twice")
	}
	s.q = q
	close(s.readyCh)
	s.mu.Unlock()
	<-ctx.Done()
	return nil
}

// add queues n by uid; before Start (which the graph builder waits for)
// it does nothing.
func (s *queueSource) add(n *node) {
	s.mu.Lock()
	q := s.q
	s.mu.Unlock()
	if q != nil {
		q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Name: n.identity.UID}})
	}
}
