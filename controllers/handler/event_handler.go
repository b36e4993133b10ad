package handler

import (
	"context"

	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/reconcile"
)

// Queue is where handlers put Requests: the part of a controller's
// workqueue a handler uses. Add folds a Request that is already waiting
// into the waiting one. Implementations are safe for concurrent use and
// never block.
//
// Upstream: k8s.io/client-go/util/workqueue (TypedRateLimitingInterface),
// of which handlers use Add.
type Queue interface {
	Add(req reconcile.Request)
}

// EventHandler maps the events of a source to Requests. A source calls it
// from one goroutine at a time; the events' objects are shared with the
// informer's cache and must not be modified.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler (EventHandler).
type EventHandler interface {
	// Create is called for an object that appeared.
	Create(ctx context.Context, ev event.CreateEvent, q Queue)
	// Update is called for an object that changed, or was resynced.
	Update(ctx context.Context, ev event.UpdateEvent, q Queue)
	// Delete is called for an object that was deleted.
	Delete(ctx context.Context, ev event.DeleteEvent, q Queue)
	// Generic is called for an event from outside the cluster.
	Generic(ctx context.Context, ev event.GenericEvent, q Queue)
}

// Funcs adapts functions to an EventHandler; nil functions ignore their
// events.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler (Funcs).
type Funcs struct {
	CreateFunc  func(ctx context.Context, ev event.CreateEvent, q Queue)
	UpdateFunc  func(ctx context.Context, ev event.UpdateEvent, q Queue)
	DeleteFunc  func(ctx context.Context, ev event.DeleteEvent, q Queue)
	GenericFunc func(ctx context.Context, ev event.GenericEvent, q Queue)
}

var _ EventHandler = Funcs{}

// Create calls CreateFunc.
func (f Funcs) Create(ctx context.Context, ev event.CreateEvent, q Queue) {
	if f.CreateFunc != nil {
		f.CreateFunc(ctx, ev, q)
	}
}

// Update calls UpdateFunc.
func (f Funcs) Update(ctx context.Context, ev event.UpdateEvent, q Queue) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(ctx, ev, q)
	}
}

// Delete calls DeleteFunc.
func (f Funcs) Delete(ctx context.Context, ev event.DeleteEvent, q Queue) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(ctx, ev, q)
	}
}

// Generic calls GenericFunc.
func (f Funcs) Generic(ctx context.Context, ev event.GenericEvent, q Queue) {
	if f.GenericFunc != nil {
		f.GenericFunc(ctx, ev, q)
	}
}
