//go:build !solution

package operator

import (
	"context"

	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/workshop/exercise"
)

// Reconcile is one turn of the control loop for one Website.
//
// TODO(you), in order:
//  1. Get the Website (r.websites.Namespace(ns).Get). NotFound: done.
//  2. DeletionTimestamp set (a delete is waiting for our finalizer):
//     delete the published ConfigMap (NotFound is fine), then remove
//     Finalizer from metadata.finalizers with an Update. The API server
//     deletes the Website once its last finalizer is gone. Done.
//  3. No Finalizer yet: add it (Update) before publishing anything, so
//     nothing is ever published that a delete could leave behind.
//  4. Make the ConfigMap PublishedName(w) in PublishNamespace hold
//     MessageKey: spec.message (Create, or Update only if it differs).
//  5. Write the status through the status subresource (UpdateStatus):
//     ObservedGeneration = metadata.generation, Phase = PhasePublished,
//     PublishedAs = "published/<PublishedName>"; only if it differs.
//
// Nothing may be written when nothing changed.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, exercise.NotDone("Reconcile in workshop/operator/reconcile.go")
}
