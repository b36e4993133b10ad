package handler

import (
	"context"
	"fmt"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/reconcile"
)

// OwnerOption tunes EnqueueRequestForOwner.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler (OwnerOption).
type OwnerOption func(*enqueueRequestForOwner)

// OnlyControllerOwner enqueues only the owner whose reference has
// controller=true: the one controller managing the object (what
// builder.Owns uses). Without it, every owner of ownerType is enqueued.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler (OnlyControllerOwner).
func OnlyControllerOwner() OwnerOption {
	return func(e *enqueueRequestForOwner) { e.isController = true }
}

// EnqueueRequestForOwner enqueues the owners of the event's object whose
// ownerReferences name ownerType's group and kind (any version). An owner
// of a namespaced kind is in the object's namespace, as ownerReferences
// cannot cross namespaces; a cluster-scoped owner has no namespace. For an
// update, the owners of both the old and the new object are enqueued, each
// once.
//
// ownerType is a prototype such as &corev1.Node{}; scheme must know its
// kind and the resource serving it. Anything else is a programmer error,
// and EnqueueRequestForOwner panics (builder.Owns checks first and returns
// an error instead).
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler
// (EnqueueRequestForOwner).
func EnqueueRequestForOwner(scheme *runtime.Scheme, ownerType runtime.Object, opts ...OwnerOption) EventHandler {
	gvk, err := scheme.ObjectKind(ownerType)
	if err != nil {
		panic(fmt.Sprintf("handler: EnqueueRequestForOwner: %v", err))
	}
	info, ok := scheme.ResourceForKind(gvk)
	if !ok {
		panic(fmt.Sprintf("handler: EnqueueRequestForOwner: no resource serves %s", gvk))
	}
	e := &enqueueRequestForOwner{group: gvk.Group, kind: gvk.Kind, namespaced: info.Namespaced}
	for _, o := range opts {
		o(e)
	}
	return e
}

type enqueueRequestForOwner struct {
	group, kind  string
	namespaced   bool
	isController bool
}

// Create implements EventHandler.
func (e *enqueueRequestForOwner) Create(_ context.Context, ev event.CreateEvent, q Queue) {
	e.enqueueOwners(q, ev.Object)
}

// Update implements EventHandler.
func (e *enqueueRequestForOwner) Update(_ context.Context, ev event.UpdateEvent, q Queue) {
	e.enqueueOwners(q, ev.ObjectOld, ev.ObjectNew)
}

// Delete implements EventHandler.
func (e *enqueueRequestForOwner) Delete(_ context.Context, ev event.DeleteEvent, q Queue) {
	e.enqueueOwners(q, ev.Object)
}

// Generic implements EventHandler.
func (e *enqueueRequestForOwner) Generic(_ context.Context, ev event.GenericEvent, q Queue) {
	e.enqueueOwners(q, ev.Object)
}

func (e *enqueueRequestForOwner) enqueueOwners(q Queue, objs ...metav1.Object) {
	seen := map[reconcile.Request]struct{}{}
	for _, obj := range objs {
		if obj == nil {
			continue
		}
		for _, req := range e.owners(obj.GetObjectMeta()) {
			if _, ok := seen[req]; ok {
				continue
			}
			seen[req] = struct{}{}
			q.Add(req)
		}
	}
}

// owners returns the Requests of meta's owners of the handler's kind.
func (e *enqueueRequestForOwner) owners(meta *metav1.ObjectMeta) []reconcile.Request {
	var out []reconcile.Request
	for _, ref := range meta.OwnerReferences {
		if e.isController && (ref.Controller == nil || !*ref.Controller) {
			continue
		}
		if ref.Kind != e.kind || runtime.ParseGroupVersion(ref.APIVersion).Group != e.group {
			continue
		}
		req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Name: ref.Name}}
		if e.namespaced {
			req.Namespace = meta.Namespace
		}
		out = append(out, req)
	}
	return out
}
