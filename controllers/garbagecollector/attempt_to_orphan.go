package garbagecollector

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/logging"
)

// reconcileAttemptToOrphan processes one attemptToOrphan item: an owner
// being deleted with the orphan finalizer. It removes the owner's
// reference from every dependent the graph knows, then the finalizer, so
// the API server lets the owner go and the dependents stay. A failure
// retries both steps with backoff; each is idempotent.
//
// An owner no longer in the graph was deleted by other means meanwhile
// (its finalizer removed by someone else): its dependents were queued as
// those of any deleted owner.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.attemptToOrphanWorker).
func (gc *GarbageCollector) reconcileAttemptToOrphan(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	owner, ok := gc.graph.uidToNode.read(req.Name)
	if !ok {
		return reconcile.Result{}, nil
	}
	if err := gc.orphanDependents(ctx, owner); err != nil {
		return reconcile.Result{}, err
	}
	if err := gc.removeFinalizer(ctx, owner, metav1.FinalizerOrphanDependents); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, nil
}

// orphanDependents removes the reference to owner from each of its
// dependents, as the graph knows them now; a dependent gone meanwhile
// needs nothing. It tries every dependent and returns their errors.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.orphanDependents), which patches the dependents
// concurrently; one after the other keeps the worker to one request at a
// time, and the collector has many workers.
func (gc *GarbageCollector) orphanDependents(ctx context.Context, owner *node) error {
	var errs []error
	for _, dep := range owner.getDependents() {
		// The patch carries dep's uid, so it never touches a newer object
		// of the same name.
		err := gc.deleteOwnerReferences(ctx, dep, owner.identity.UID)
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("orphan %s: %w", dep.identity, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("orphan the dependents of %s: %w", owner.identity, errors.Join(errs...))
	}
	logging.FromContext(ctx).DebugContext(ctx, "orphaned the dependents", "owner", owner.identity.String())
	return nil
}
