package handler

import (
	"context"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/reconcile"
)

// MapFunc returns the Requests to reconcile when obj changes. It is called
// from an informer goroutine: it may read caches but must not block or
// call the API server.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler (MapFunc).
type MapFunc func(ctx context.Context, obj metav1.Object) []reconcile.Request

// EnqueueRequestsFromMapFunc enqueues the Requests fn returns for the
// event's object; for an update, for both the old and the new object (a
// label change may move the object from one Request to another). Each
// Request is added once per event.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler
// (EnqueueRequestsFromMapFunc).
func EnqueueRequestsFromMapFunc(fn MapFunc) EventHandler {
	return &enqueueRequestsFromMapFunc{toRequests: fn}
}

type enqueueRequestsFromMapFunc struct {
	toRequests MapFunc
}

// Create implements EventHandler.
func (e *enqueueRequestsFromMapFunc) Create(ctx context.Context, ev event.CreateEvent, q Queue) {
	e.mapAndEnqueue(ctx, q, ev.Object)
}

// Update implements EventHandler.
func (e *enqueueRequestsFromMapFunc) Update(ctx context.Context, ev event.UpdateEvent, q Queue) {
	e.mapAndEnqueue(ctx, q, ev.ObjectOld, ev.ObjectNew)
}

// Delete implements EventHandler.
func (e *enqueueRequestsFromMapFunc) Delete(ctx context.Context, ev event.DeleteEvent, q Queue) {
	e.mapAndEnqueue(ctx, q, ev.Object)
}

// Generic implements EventHandler.
func (e *enqueueRequestsFromMapFunc) Generic(ctx context.Context, ev event.GenericEvent, q Queue) {
	e.mapAndEnqueue(ctx, q, ev.Object)
}

func (e *enqueueRequestsFromMapFunc) mapAndEnqueue(ctx context.Context, q Queue, objs ...metav1.Object) {
	seen := map[reconcile.Request]struct{}{}
	for _, obj := range objs {
		if obj == nil {
			continue
		}
		for _, req := range e.toRequests(ctx, obj) {
			if _, ok := seen[req]; ok {
				continue
			}
			seen[req] = struct{}{}
			q.Add(req)
		}
	}
}
