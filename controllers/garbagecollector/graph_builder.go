package garbagecollector

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

// eventType is the kind of change a graph event reports.
type eventType int

const (
	addEvent eventType = iota
	updateEvent
	deleteEvent
)

// String names the event type in logs.
func (e eventType) String() string {
	switch e {
	case addEvent:
		return "add"
	case updateEvent:
		return "update"
	case deleteEvent:
		return "delete"
	}
	return fmt.Sprintf("unknown(%d)", int(e))
}

// event is one change for the graph: an informer's add, update or delete,
// or a virtual delete the collector made up after the API server said an
// object it looked up does not exist.
type event struct {
	eventType eventType
	// virtual marks a made-up delete: meta holds only the identity.
	virtual bool
	// meta and oldMeta (updates only) belong to the informer's cached
	// objects: read them, never modify them.
	meta, oldMeta *metav1.ObjectMeta
	gvk           runtime.GroupVersionKind
}

// graphBuilder keeps the ownership graph: every object of every monitored
// resource as a node, by uid, linked to its owners and dependents. The
// informers' handlers queue their changes in graphChanges; one goroutine
// applies them in order, and puts the nodes that may now be garbage on the
// attemptToDelete queue and the owners that start orphaning on
// attemptToOrphan. Because one goroutine writes the graph, the collector's
// workers always read a graph at least as recent as the change that sent
// them.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder).
type graphBuilder struct {
	scheme   *runtime.Scheme
	recorder record.EventRecorder
	log      *slog.Logger

	uidToNode *uidToNode
	// absentOwnerCache is shared with the GarbageCollector.
	absentOwnerCache *referenceCache
	attemptToDelete  *queueSource
	attemptToOrphan  *queueSource
	// resyncCh (capacity 1) carries a request to read discovery again to
	// the collector's resync loop; a full resyncCh already asks.
	resyncCh chan struct{}

	// mu guards the fields below and every monitor's handled map.
	mu sync.Mutex
	// monitors are the resources whose informers feed the graph.
	monitors map[runtime.GroupVersionResource]*monitor
	// resyncRequested is set from a resync request until the resync that
	// serves it starts, and resyncing while one runs: either way a
	// resource may be about to get a monitor, so the builder is not idle.
	// It starts set: the first resync makes the first monitors.
	resyncRequested, resyncing bool
	// graphChanges is the FIFO of events not yet applied. It is unbounded,
	// as upstream's: dropping an event would leave the graph wrong for
	// good, and blocking would only move the backlog into the informers'
	// listeners.
	graphChanges []*event
	// processing is set while the goroutine applies an event it took.
	processing bool
	// running is set once the handlers are registered and the queues are
	// ready; the builder is not idle before.
	running bool
	// generation counts events queued, so the collector's Idle can tell
	// that nothing arrived while it looked at its queues one by one.
	generation uint64
	// changed is notified at every change, under mu, so the processing
	// goroutine and Idle's callers can also select on their ctx.
	changed wait.Broadcast
}

// newGraphBuilder returns a builder with no monitors yet: the collector
// adds them (addMonitor) as discovery finds resources.
func newGraphBuilder(scheme *runtime.Scheme, recorder record.EventRecorder, log *slog.Logger,
	absent *referenceCache, attemptToDelete, attemptToOrphan *queueSource) *graphBuilder {
	return &graphBuilder{
		scheme: scheme, recorder: recorder, log: log,
		uidToNode: newUIDToNode(), absentOwnerCache: absent,
		attemptToDelete: attemptToDelete, attemptToOrphan: attemptToOrphan,
		resyncCh:        make(chan struct{}, 1),
		monitors:        map[runtime.GroupVersionResource]*monitor{},
		resyncRequested: true,
	}
}

// run runs the builder until ctx is done:
//
//  1. it waits for both queues' sources to be started, so that no node is
//     queued before a controller can take it; the monitors' handlers may
//     queue events meanwhile;
//  2. it applies the queued events, one at a time, until ctx is done;
//  3. it removes the monitors' handlers and returns.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.Run).
func (gb *graphBuilder) run(ctx context.Context) {
	for _, ready := range []<-chan struct{}{gb.attemptToDelete.readyCh, gb.attemptToOrphan.readyCh} {
		select {
		case <-ready:
		case <-ctx.Done():
			return
		}
	}
	defer gb.removeAllMonitors()
	gb.mu.Lock()
	gb.running = true
	gb.notifyLocked()
	gb.mu.Unlock()
	gb.log.InfoContext(ctx, "graph builder running")
	for {
		ev, ok := gb.next(ctx)
		if !ok {
			break
		}
		gb.processGraphChange(ctx, ev)
		gb.mu.Lock()
		gb.processing = false
		gb.notifyLocked()
		gb.mu.Unlock()
	}
	gb.mu.Lock()
	gb.running = false
	gb.notifyLocked()
	gb.mu.Unlock()
}

// next takes the oldest queued event, waiting for one; false once ctx is
// done.
func (gb *graphBuilder) next(ctx context.Context) (*event, bool) {
	gb.mu.Lock()
	for {
		if ctx.Err() != nil {
			gb.mu.Unlock()
			return nil, false
		}
		if len(gb.graphChanges) > 0 {
			ev := gb.graphChanges[0]
			gb.graphChanges[0] = nil // let the informer's object go
			gb.graphChanges = gb.graphChanges[1:]
			gb.processing = true
			gb.mu.Unlock()
			return ev, true
		}
		ch := gb.changed.Wait()
		gb.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-ch:
		}
		gb.mu.Lock()
	}
}

func (gb *graphBuilder) notifyLocked() {
	gb.changed.Notify()
}

// enqueueLocked queues ev for the processing goroutine.
func (gb *graphBuilder) enqueueLocked(ev *event) {
	gb.graphChanges = append(gb.graphChanges, ev)
	gb.generation++
	gb.notifyLocked()
}

// enqueueVirtualDeleteEvent queues the deletion of ref's node, once the
// API server has said no object has that identity, so the builder removes
// a virtual node and deals with its dependents.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.enqueueVirtualDeleteEvent).
func (gb *graphBuilder) enqueueVirtualDeleteEvent(ref objectReference) {
	ev := &event{
		eventType: deleteEvent,
		virtual:   true,
		meta:      &metav1.ObjectMeta{Name: ref.Name, Namespace: ref.Namespace, UID: ref.UID},
		gvk:       ref.gvk(),
	}
	gb.mu.Lock()
	defer gb.mu.Unlock()
	gb.enqueueLocked(ev)
}

// handlerFor returns the informer handler of m: each change becomes an
// event, queued in the same critical section that records it as handled.
// A change to a CRD also requests a resync (see isCRDMonitor).
func (gb *graphBuilder) handlerFor(m *monitor) informer.ResourceEventHandler {
	gvk := m.resource.GVK()
	crds := isCRDMonitor(m)
	queue := func(ev *event, key, rv string, deleted bool) {
		gb.mu.Lock()
		if deleted {
			delete(m.handled, key)
		} else {
			m.handled[key] = rv
		}
		if crds {
			// In the same critical section, so the builder is never idle
			// between the CRD's change and the resync it asks for.
			gb.resyncRequested = true
		}
		if ev != nil {
			gb.enqueueLocked(ev)
		} else {
			gb.notifyLocked()
		}
		gb.mu.Unlock()
		if crds {
			gb.signalResync()
		}
	}
	return informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj runtime.Object, _ bool) {
			meta, key, ok := objectMeta(obj)
			if ok {
				queue(&event{eventType: addEvent, meta: meta, gvk: gvk}, key, meta.ResourceVersion, false)
			}
		},
		UpdateFunc: func(oldObj, newObj runtime.Object) {
			meta, key, ok := objectMeta(newObj)
			if !ok {
				return
			}
			// The old state only tells transitions apart; without one the
			// update counts as a first sighting.
			oldMeta, _, _ := objectMeta(oldObj)
			queue(&event{eventType: updateEvent, meta: meta, oldMeta: oldMeta, gvk: gvk}, key, meta.ResourceVersion, false)
		},
		DeleteFunc: func(obj any) {
			key, err := informer.MetaNamespaceKeyFunc(obj)
			if err != nil {
				return
			}
			if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			var ev *event
			if o, ok := obj.(runtime.Object); ok {
				if meta, _, ok := objectMeta(o); ok {
					ev = &event{eventType: deleteEvent, meta: meta, gvk: gvk}
				}
			}
			queue(ev, key, "", true)
		},
	}
}

// objectMeta returns obj's metadata and informer key; false for an object
// without metadata, which the informer cannot hold either.
func objectMeta(obj runtime.Object) (*metav1.ObjectMeta, string, bool) {
	if obj == nil {
		return nil, "", false
	}
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, "", false
	}
	key, err := informer.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil, "", false
	}
	return meta, key, true
}

// idle reports whether the builder runs with every handler caught up
// with its informer (synced, every cached object queued at its current
// resourceVersion, every delete queued), no event queued and none being
// applied, and no resync of the monitors requested or running. It also
// returns the generation, and a channel closed at the builder's next
// change after the call began.
func (gb *graphBuilder) idle() (idle bool, generation uint64, changed <-chan struct{}) {
	// The channel is taken first: a handler call, an event applied or a
	// monitor added or removed while the Indexers are read below closes
	// it, so a verdict made from a stale read is looked at again.
	gb.mu.Lock()
	changed = gb.changed.Wait()
	monitors := maps.Clone(gb.monitors)
	gb.mu.Unlock()
	// The Indexers are read without mu: a handler that has queued the
	// latest state of everything read here has caught up with that state.
	synced := true
	listed := make(map[*monitor][]runtime.Object, len(monitors))
	for _, m := range monitors {
		if !m.informer.HasSynced() {
			synced = false
			break
		}
		listed[m] = m.informer.Indexer().List()
	}
	gb.mu.Lock()
	defer gb.mu.Unlock()
	if !synced || !gb.running || gb.processing || len(gb.graphChanges) > 0 || gb.resyncRequested || gb.resyncing ||
		!maps.Equal(monitors, gb.monitors) {
		return false, gb.generation, changed
	}
	for m, objs := range listed {
		if !caughtUpLocked(m, objs) {
			return false, gb.generation, changed
		}
	}
	return true, gb.generation, changed
}

// caughtUpLocked reports whether m's handler has queued every object of
// objs at its resourceVersion, and the deletion of every object not in
// objs.
func caughtUpLocked(m *monitor, objs []runtime.Object) bool {
	if len(objs) != len(m.handled) {
		return false
	}
	for _, obj := range objs {
		meta, key, ok := objectMeta(obj)
		if !ok {
			return false
		}
		if rv, ok := m.handled[key]; !ok || rv != meta.ResourceVersion {
			return false
		}
	}
	return true
}
