package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/informer"
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

// monitor is the graph builder's handler on one resource's shared
// informer.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector (monitor),
// which runs its own informer when it cannot share one; minicp's manager
// cache always can.
type monitor struct {
	resource runtime.ResourceInfo
	informer *informer.SharedInformer
	// handled maps each object's informer key to the resourceVersion of
	// the state last queued as an event, so Idle can tell whether the
	// handler has caught up with the informer. Guarded by
	// graphBuilder.mu.
	handled map[string]string
	reg     *informer.Registration
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
	monitors []*monitor

	uidToNode *uidToNode
	// absentOwnerCache is shared with the GarbageCollector.
	absentOwnerCache *referenceCache
	attemptToDelete  *queueSource
	attemptToOrphan  *queueSource

	// mu guards the fields below and every monitor's handled map.
	mu sync.Mutex
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
	// changedCh is closed and replaced at every change, so the processing
	// goroutine and Idle's callers can also select on their ctx.
	changedCh chan struct{}
}

// newGraphBuilder returns a builder for the resources, whose informers
// the caller has asked for already.
func newGraphBuilder(scheme *runtime.Scheme, recorder record.EventRecorder, log *slog.Logger, monitors []*monitor,
	absent *referenceCache, attemptToDelete, attemptToOrphan *queueSource) *graphBuilder {
	return &graphBuilder{
		scheme: scheme, recorder: recorder, log: log, monitors: monitors,
		uidToNode: newUIDToNode(), absentOwnerCache: absent,
		attemptToDelete: attemptToDelete, attemptToOrphan: attemptToOrphan,
		changedCh: make(chan struct{}),
	}
}

// run runs the builder until ctx is done:
//
//  1. it waits for both queues' sources to be started, so that no node is
//     queued before a controller can take it;
//  2. it adds one handler per monitored informer; each first receives the
//     objects the informer holds;
//  3. it applies the queued events, one at a time, until ctx is done;
//  4. it removes its handlers and returns.
//
// It returns an error only if a handler could not be added.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.Run).
func (gb *graphBuilder) run(ctx context.Context) error {
	for _, ready := range []<-chan struct{}{gb.attemptToDelete.readyCh, gb.attemptToOrphan.readyCh} {
		select {
		case <-ready:
		case <-ctx.Done():
			return nil
		}
	}
	var errs []error
	for _, m := range gb.monitors {
		reg, err := m.informer.AddEventHandler(gb.handlerFor(m), informer.HandlerOptions{ResyncPeriod: new(time.Duration)})
		if err != nil {
			errs = append(errs, fmt.Errorf("garbage collector: watch %s: %w", m.resource.GVR, err))
			continue
		}
		m.reg = reg
	}
	defer func() {
		for _, m := range gb.monitors {
			if m.reg != nil {
				_ = m.informer.RemoveEventHandler(m.reg)
			}
		}
	}()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	gb.mu.Lock()
	gb.running = true
	gb.notifyLocked()
	gb.mu.Unlock()
	gb.log.InfoContext(ctx, "graph builder running", "resources", len(gb.monitors))
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
	return nil
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
		ch := gb.changedCh
		gb.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-ch:
		}
		gb.mu.Lock()
	}
}

func (gb *graphBuilder) notifyLocked() {
	close(gb.changedCh)
	gb.changedCh = make(chan struct{})
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
func (gb *graphBuilder) handlerFor(m *monitor) informer.ResourceEventHandler {
	gvk := m.resource.GVK()
	queue := func(ev *event, key, rv string, deleted bool) {
		gb.mu.Lock()
		defer gb.mu.Unlock()
		if deleted {
			delete(m.handled, key)
		} else {
			m.handled[key] = rv
		}
		if ev != nil {
			gb.enqueueLocked(ev)
			return
		}
		gb.notifyLocked()
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
// applied. It also returns the generation, and a channel closed at the
// builder's next change after the call began.
func (gb *graphBuilder) idle() (idle bool, generation uint64, changed <-chan struct{}) {
	// The channel is taken first: a handler call or an event applied
	// while the Indexers are read below closes it, so a verdict made from
	// a stale read is looked at again.
	gb.mu.Lock()
	changed = gb.changedCh
	gb.mu.Unlock()
	// The Indexers are read without mu: a handler that has queued the
	// latest state of everything read here has caught up with that state.
	synced := true
	listed := make([][]runtime.Object, len(gb.monitors))
	for i, m := range gb.monitors {
		if !m.informer.HasSynced() {
			synced = false
			break
		}
		listed[i] = m.informer.Indexer().List()
	}
	gb.mu.Lock()
	defer gb.mu.Unlock()
	if !synced || !gb.running || gb.processing || len(gb.graphChanges) > 0 {
		return false, gb.generation, changed
	}
	for i, m := range gb.monitors {
		if !caughtUpLocked(m, listed[i]) {
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
