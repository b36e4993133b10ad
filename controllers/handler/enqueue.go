package handler

import (
	"context"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/reconcile"
)

// EnqueueRequestForObject enqueues the Request of the event's object
// itself: the handler of the kind a controller is For.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler
// (EnqueueRequestForObject).
type EnqueueRequestForObject struct{}

var _ EventHandler = EnqueueRequestForObject{}

// Create implements EventHandler.
func (EnqueueRequestForObject) Create(_ context.Context, ev event.CreateEvent, q Queue) {
	enqueueObject(ev.Object, q)
}

// Update implements EventHandler. Old and new name the same object, so
// the new one is enough.
func (EnqueueRequestForObject) Update(_ context.Context, ev event.UpdateEvent, q Queue) {
	if ev.ObjectNew != nil {
		enqueueObject(ev.ObjectNew, q)
		return
	}
	enqueueObject(ev.ObjectOld, q)
}

// Delete implements EventHandler.
func (EnqueueRequestForObject) Delete(_ context.Context, ev event.DeleteEvent, q Queue) {
	enqueueObject(ev.Object, q)
}

// Generic implements EventHandler.
func (EnqueueRequestForObject) Generic(_ context.Context, ev event.GenericEvent, q Queue) {
	enqueueObject(ev.Object, q)
}

// enqueueObject adds obj's Request; a nil object is ignored.
func enqueueObject(obj metav1.Object, q Queue) {
	if obj == nil {
		return
	}
	q.Add(requestFor(obj))
}

// requestFor returns the Request naming obj.
func requestFor(obj metav1.Object) reconcile.Request {
	meta := obj.GetObjectMeta()
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: meta.Namespace, Name: meta.Name}}
}
