package informer

import (
	"time"

	"github.com/minicp/minicp/api/runtime"
)

// ResourceEventHandler is told about changes to a SharedInformer's
// objects. Calls for one handler are sequential, in the order the changes
// happened, each object in its final-state order; the objects are shared
// with the Indexer and other handlers and must not be modified.
//
// Upstream: k8s.io/client-go/tools/cache (ResourceEventHandler).
type ResourceEventHandler interface {
	// OnAdd is a new object; isInInitialList is true for the objects of
	// the first LIST (and, for a handler added late, of the state it was
	// added to).
	OnAdd(obj runtime.Object, isInInitialList bool)
	// OnUpdate is a changed object, or with oldObj == newObj's state, a
	// periodic resync or an unchanged object seen again by a relist.
	OnUpdate(oldObj, newObj runtime.Object)
	// OnDelete is a deleted object: the object itself (its last state), or
	// a DeletedFinalStateUnknown when the delete was learned by relisting.
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs adapts functions to a ResourceEventHandler;
// nil functions ignore their calls.
//
// Upstream: k8s.io/client-go/tools/cache (ResourceEventHandlerFuncs,
// ResourceEventHandlerDetailedFuncs).
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj runtime.Object, isInInitialList bool)
	UpdateFunc func(oldObj, newObj runtime.Object)
	DeleteFunc func(obj any)
}

var _ ResourceEventHandler = ResourceEventHandlerFuncs{}

// OnAdd calls AddFunc.
func (f ResourceEventHandlerFuncs) OnAdd(obj runtime.Object, isInInitialList bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc.
func (f ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj runtime.Object) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc.
func (f ResourceEventHandlerFuncs) OnDelete(obj any) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// HandlerOptions tune one handler.
type HandlerOptions struct {
	// ResyncPeriod, when set, overrides the informer's ResyncPeriod for
	// this handler; 0 means no resync. Periods under a second are raised
	// to a second. Once the informer has started, a period shorter than
	// the informer's resync check period is raised to it, and an informer
	// started without any resync gives none.
	ResyncPeriod *time.Duration
}

// Registration is a handler added to a SharedInformer.
type Registration struct {
	listener *processorListener
}

// HasSynced reports whether the handler has been given the state it
// started with: the first LIST's objects, or for a handler added after
// the informer synced, the objects it held then.
func (r *Registration) HasSynced() bool {
	select {
	case <-r.listener.syncedCh:
		return true
	default:
		return false
	}
}
