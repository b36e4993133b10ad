// Package handler turns the events of a controller's sources into
// reconcile.Requests on its workqueue. It sits between the informer and
// the queue:
//
//	informer -> source -> EventHandler -> Queue.Add(Request) -> worker
//
// The handlers cover the usual mappings:
//
//   - EnqueueRequestForObject: the object itself (what builder.For uses);
//   - EnqueueRequestForOwner: the object's owner, from its
//     ownerReferences (what builder.Owns uses, with OnlyControllerOwner);
//   - EnqueueRequestsFromMapFunc: whatever a function says, for any other
//     relation (a label, a field, a node name).
//
// Each handler puts a Request on the queue at most once per event; the
// queue folds the same Request from many events into one reconcile.
// Handlers are called from informer goroutines and must not block.
//
// Owners are enqueued because a controller watches the objects it created
// (a Job's pods) and reacts to their changes by reconciling the owner.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/handler.
package handler
