package garbagecollector

import (
	"context"
	"errors"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/logging"
)

// errEnqueuedVirtualDeleteEvent says the item turned out not to exist and
// the graph builder was told: nothing to retry.
var errEnqueuedVirtualDeleteEvent = errors.New("enqueued virtual delete event")

// errNamespacedOwnerOfClusterScopedObject says a cluster-scoped object
// names a namespaced owner, which it cannot have: retrying cannot fix it.
var errNamespacedOwnerOfClusterScopedObject = errors.New("cluster-scoped objects cannot refer to namespaced owners")

// reconcileAttemptToDelete processes one attemptToDelete item: the node
// of uid req.Name. An error retries it with backoff; a virtual node that
// exists but that no informer has shown yet is retried too, so that a
// virtual node whose object came and went while a watch was down does not
// stay in the graph for ever.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.attemptToDeleteWorker).
func (gc *GarbageCollector) reconcileAttemptToDelete(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	n, ok := gc.graph.uidToNode.read(req.Name)
	if !ok {
		return reconcile.Result{}, nil // deleted meanwhile: its dependents are queued already
	}
	err := gc.attemptToDeleteItem(ctx, n)
	switch {
	case errors.Is(err, errEnqueuedVirtualDeleteEvent), errors.Is(err, errNamespacedOwnerOfClusterScopedObject):
		return reconcile.Result{}, nil
	case err != nil:
		return reconcile.Result{}, err
	case !n.isObserved():
		return reconcile.Result{Requeue: true}, nil
	}
	return reconcile.Result{}, nil
}

// attemptToDeleteItem reads the object of item from the API server and
// deletes it if every owner is gone (or waits for its dependents to be
// deleted), removes the references to absent owners if some owner remains,
// and finishes a foreground deletion of item whose blocking dependents are
// gone. An object that does not exist becomes a virtual delete event
// (errEnqueuedVirtualDeleteEvent).
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.attemptToDeleteItem).
func (gc *GarbageCollector) attemptToDeleteItem(ctx context.Context, item *node) error {
	log := logging.FromContext(ctx)
	log.DebugContext(ctx, "processing item", "item", item.identity.String(), "virtual", !item.isObserved())
	// Being deleted is a one-way trip: wait for the deletion, then deal
	// with the dependents.
	if item.isBeingDeleted() && !item.isDeletingDependents() {
		return nil
	}
	latest, err := gc.getObject(ctx, item.identity)
	switch {
	case apierrors.IsNotFound(err):
		// A virtual node for an owner that does not exist, or an object
		// deleted before its informer said so.
		gc.graph.enqueueVirtualDeleteEvent(item.identity)
		return errEnqueuedVirtualDeleteEvent
	case err != nil:
		return err
	}
	if latest.UID != item.identity.UID {
		gc.graph.enqueueVirtualDeleteEvent(item.identity)
		return errEnqueuedVirtualDeleteEvent
	}
	if item.isDeletingDependents() {
		return gc.processDeletingDependentsItem(ctx, item)
	}
	owners := latest.OwnerReferences
	if len(owners) == 0 {
		return nil
	}
	solid, dangling, waiting, err := gc.classifyReferences(ctx, item, owners)
	if err != nil {
		return err
	}
	log.DebugContext(ctx, "classified owners", "item", item.identity.String(),
		"solid", len(solid), "dangling", len(dangling), "waitingForDependentsDeletion", len(waiting))
	switch {
	case len(solid) > 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			return nil
		}
		// The owners waiting for their dependents must lose this one too,
		// or their foreground deletion would wait for an object that
		// stays.
		var uids []string
		for _, ref := range append(dangling, waiting...) {
			uids = append(uids, ref.UID)
		}
		log.DebugContext(ctx, "removing references to absent owners", "item", item.identity.String(), "owners", uids)
		return gc.deleteOwnerReferences(ctx, item, uids...)
	case len(waiting) > 0 && item.dependentsLength() > 0:
		for _, dep := range item.getDependents() {
			if dep.isDeletingDependents() {
				// item is waited for by an owner and waits for a dependent
				// waiting for it: a possible cycle. Break it by making
				// item's references non-blocking. The check can report
				// false cycles, and miss races between workers.
				log.DebugContext(ctx, "unblocking owner references to prevent a cycle", "item", item.identity.String(),
					"dependent", dep.identity.String())
				if err := gc.unblockOwnerReferences(ctx, item); err != nil {
					return err
				}
				break
			}
		}
		// item's own dependents go first; processDeletingDependentsItem
		// finishes it once they are gone.
		return gc.deleteItem(ctx, item, latest, metav1.DeletePropagationForeground)
	default:
		// No owner remains; honour a collector finalizer the object
		// already has, else delete in the background.
		policy := metav1.DeletePropagationBackground
		switch {
		case hasFinalizer(latest, metav1.FinalizerOrphanDependents):
			policy = metav1.DeletePropagationOrphan
		case hasFinalizer(latest, metav1.FinalizerDeleteDependents):
			policy = metav1.DeletePropagationForeground
		}
		return gc.deleteItem(ctx, item, latest, policy)
	}
}

// deleteItem deletes item's object as latest shows it; an object gone
// meanwhile becomes a virtual delete event.
func (gc *GarbageCollector) deleteItem(ctx context.Context, item *node, latest *metav1.ObjectMeta, policy metav1.DeletionPropagation) error {
	logging.FromContext(ctx).DebugContext(ctx, "deleting item", "item", item.identity.String(), "propagationPolicy", policy)
	err := gc.deleteObject(ctx, item.identity, latest.ResourceVersion, latest.OwnerReferences, policy)
	if apierrors.IsNotFound(err) {
		gc.graph.enqueueVirtualDeleteEvent(item.identity)
		return errEnqueuedVirtualDeleteEvent
	}
	return err
}

// processDeletingDependentsItem finishes the foreground deletion of item
// once no dependent blocks it, by removing the foregroundDeletion
// finalizer; until then it queues the blocking dependents, which are
// deleted (in the foreground, if they have dependents of their own).
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.processDeletingDependentsItem).
func (gc *GarbageCollector) processDeletingDependentsItem(ctx context.Context, item *node) error {
	blocking := item.blockingDependents()
	if len(blocking) == 0 {
		logging.FromContext(ctx).DebugContext(ctx, "removing the foregroundDeletion finalizer", "item", item.identity.String())
		return gc.removeFinalizer(ctx, item, metav1.FinalizerDeleteDependents)
	}
	for _, dep := range blocking {
		if !dep.isDeletingDependents() {
			gc.graph.attemptToDelete.add(dep)
		}
	}
	return nil
}

// classifyReferences sorts item's owner references, looking each owner up
// at the API server:
//
//	solid      the owner exists and is not waiting for its dependents
//	dangling   the owner does not exist
//	waiting    the owner exists, being deleted with foregroundDeletion
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.classifyReferences).
func (gc *GarbageCollector) classifyReferences(ctx context.Context, item *node, refs []metav1.OwnerReference) (
	solid, dangling, waiting []metav1.OwnerReference, err error) {
	for _, ref := range refs {
		isDangling, owner, err := gc.isDangling(ctx, ref, item)
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case isDangling:
			dangling = append(dangling, ref)
		case beingDeleted(owner) && hasFinalizer(owner, metav1.FinalizerDeleteDependents):
			waiting = append(waiting, ref)
		default:
			solid = append(solid, ref)
		}
	}
	return solid, dangling, waiting, nil
}

// isDangling reports whether ref names an owner that does not exist: one
// the API server does not have, or has under another uid (the name was
// reused). A namespaced owner is looked up in item's namespace, so a
// reference to one elsewhere dangles. Owners known absent are not looked
// up again. It returns the owner's metadata when it exists.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.isDangling).
func (gc *GarbageCollector) isDangling(ctx context.Context, ref metav1.OwnerReference, item *node) (
	dangling bool, owner *metav1.ObjectMeta, err error) {
	key := objectReference{OwnerReference: ownerReferenceCoordinates(ref)}
	if gc.absentOwnerCache.has(key) {
		return true, nil, nil // a cluster-scoped owner known absent
	}
	key.Namespace = item.identity.Namespace
	if gc.absentOwnerCache.has(key) {
		return true, nil, nil // a namespaced owner known absent here
	}
	info, err := gc.apiResource(ctx, ref.APIVersion, ref.Kind)
	if err != nil {
		return false, nil, err
	}
	if !info.Namespaced {
		key.Namespace = ""
	}
	if item.identity.Namespace == "" && info.Namespaced {
		// Not an absent owner but an invalid reference: deleting item
		// would act on a lookup that cannot succeed.
		logging.FromContext(ctx).DebugContext(ctx, "cluster-scoped item refers to a namespaced owner",
			"item", item.identity.String(), "owner", ref.Name)
		return false, nil, errNamespacedOwnerOfClusterScopedObject
	}
	owner, err = gc.getObject(ctx, key)
	switch {
	case apierrors.IsNotFound(err):
		gc.absentOwnerCache.add(key)
		return true, nil, nil
	case err != nil:
		return false, nil, err
	}
	if owner.UID != ref.UID {
		gc.absentOwnerCache.add(key)
		return true, nil, nil
	}
	return false, owner, nil
}
