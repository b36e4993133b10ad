package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/wait"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/generic-garbage-collector under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "generic-garbage-collector"

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
// the API server serves that can be listed, watched and deleted, custom
// resources included. It follows discovery (see runResync): a monitor
// watches each such resource, started when the resource appears and
// stopped when it goes away. Its graph builder keeps the ownership graph
// from the monitors' informers; its two controllers work the queues the
// graph builder fills:
//
//	discovery -> monitors (informers) -> graph builder (graphChanges, one goroutine)
//	    -> attemptToDelete -> workers -> DELETE, PATCH
//	    -> attemptToOrphan -> workers -> PATCH
//
// A queued item is a node's uid (in the Request's Name): workers read the
// node from the graph, and the object itself from the API server, never
// from the cache, before they delete anything.
//
// It is a manager.Runnable that runs on the leader only, and a
// wait.Idler. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector).
type GarbageCollector struct {
	client     *client.Client
	scheme     *runtime.Scheme
	cache      *cache.Cache
	discovery  *client.DiscoveryClient
	restMapper *restMapper
	clock      clock.Clock
	log        *slog.Logger
	// informerLog is the manager's logger, which informers scope
	// themselves.
	informerLog *slog.Logger
	ignored     []runtime.GroupResource
	// schemeResources are the deletable resources of the scheme when the
	// collector was made: the resources whose informers it shares with
	// the manager's other controllers (see startMonitor), and what it
	// watches while discovery has never answered.
	schemeResources  []runtime.ResourceInfo
	graph            *graphBuilder
	absentOwnerCache *referenceCache
	deleteController *controller.Controller
	orphanController *controller.Controller
	// informersWG counts the informers the collector runs itself; Add
	// only on the resync goroutine, which Start waits for before Wait.
	informersWG sync.WaitGroup
}

var (
	_ manager.Runnable               = (*GarbageCollector)(nil)
	_ manager.LeaderElectionRunnable = (*GarbageCollector)(nil)
	_ wait.Idler                     = (*GarbageCollector)(nil)
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

// New returns a collector over mgr's client and cache. It asks the
// cache for the informer of every deletable resource of the scheme, so
// that they start (and sync) with the manager; Start then watches what
// discovery lists. The caller adds it to mgr (see Add).
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
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("garbage collector: %w", err)
	}
	discovery := client.NewDiscoveryClient(cl)
	gc := &GarbageCollector{
		client:           cl,
		scheme:           mgr.GetScheme(),
		cache:            mgr.GetCache(),
		discovery:        discovery,
		restMapper:       newRESTMapper(discovery),
		clock:            mgr.GetClock(),
		log:              log,
		informerLog:      mgr.GetLogger(),
		ignored:          opts.IgnoredResources,
		absentOwnerCache: newReferenceCache(absentOwnerCacheSize),
	}
	gc.schemeResources = gc.deletable(gc.scheme.Resources())
	for _, info := range gc.schemeResources {
		if _, err := gc.cache.InformerFor(info.GVR); err != nil {
			return nil, fmt.Errorf("garbage collector: %w", err)
		}
	}
	attemptToDelete, attemptToOrphan := newQueueSource(), newQueueSource()
	gc.graph = newGraphBuilder(gc.scheme, mgr.GetEventRecorderFor(ComponentName), log,
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

// Start runs the collector until ctx is done: both controllers, the
// resync loop that keeps the monitors in step with discovery, and the
// graph builder once the controllers' queues are ready (see
// graphBuilder.run). It returns after all of them stopped, with the
// controllers' errors.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.Run).
//
// Shutdown, when ctx ends:
//
//  1. the graph builder stops applying events and removes its handlers;
//  2. the controllers stop their workers, and the resync loop stops
//     making monitors;
//  3. the informers the collector runs itself stop.
func (gc *GarbageCollector) Start(ctx context.Context) error {
	gc.log.InfoContext(ctx, "starting")
	var wg sync.WaitGroup
	var deleteErr, orphanErr error
	wg.Go(func() { deleteErr = gc.deleteController.Start(ctx) })
	wg.Go(func() { orphanErr = gc.orphanController.Start(ctx) })
	wg.Go(func() { gc.runResync(ctx) })
	gc.graph.run(ctx)
	wg.Wait()
	// Only the resync loop starts informers, and it has returned.
	gc.informersWG.Wait()
	gc.log.InfoContext(ctx, "stopped")
	return errors.Join(deleteErr, orphanErr)
}

// NeedLeaderElection implements manager.LeaderElectionRunnable: two
// collectors would race to delete the same objects.
func (gc *GarbageCollector) NeedLeaderElection() bool { return true }

// Idle implements wait.Idler: the graph builder has applied every
// change its informers hold and no resync of the monitors is asked for or
// running, and both controllers have nothing queued, nothing in flight and
// no delay due.
//
// The three are asked one at a time, so Idle makes sure nothing moved
// between them: only the graph builder feeds the controllers, and only
// while it is busy; the controllers feed the graph builder (virtual
// deletes), which counts every event it receives. A graph builder idle
// before and after, having received nothing, means the controllers were
// not fed meanwhile.
func (gc *GarbageCollector) Idle() bool {
	idle, _ := gc.idle()
	return idle
}

// IdleChanged implements wait.Idler: the channel of the part that keeps
// the collector busy, taken before Idle looks.
func (gc *GarbageCollector) IdleChanged() <-chan struct{} {
	_, changed := gc.idle()
	return changed
}

// idle is Idle, and a channel closed at the next change that may make it
// idle.
func (gc *GarbageCollector) idle() (idle bool, changed <-chan struct{}) {
	idle, before, changed := gc.graph.idle()
	if !idle {
		return false, changed
	}
	for _, c := range []*controller.Controller{gc.deleteController, gc.orphanController} {
		ch := c.IdleChanged()
		if !c.Idle() {
			return false, ch
		}
	}
	idle, after, changed := gc.graph.idle()
	if !idle {
		return false, changed
	}
	if after != before {
		// Something arrived and was handled meanwhile: look again.
		return false, wait.Closed
	}
	// Idle: the graph's channel does not cover the controllers, so the
	// caller is told to look again (see the Idler contract).
	return true, wait.Closed
}

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
