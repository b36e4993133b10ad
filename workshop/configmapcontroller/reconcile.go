//go:build !solution

package configmapcontroller

import (
	"context"

	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/workshop/exercise"
)

// Reconcile makes the Deployment named like the ConfigMap req names match
// it. It is level-triggered: it does not know what changed, only what is.
//
// TODO(you), in order:
//  1. Get the ConfigMap (r.clientset.ConfigMaps(ns).Get). NotFound, or no
//     DeployLabel "true": nothing to do (the garbage collector removes
//     the Deployment of a deleted ConfigMap, through its ownerReference).
//  2. Build the Deployment it asks for: name and namespace of the
//     ConfigMap; replicas from ReplicasKey (1 when absent; a bad number
//     is a reconcile.TerminalError: retrying will not fix it); selector
//     and pod labels AppLabel=<name>; one container "app" with the
//     ImageKey image; an ownerReference to the ConfigMap with
//     controller: true (controllerref.NewControllerRef).
//  3. Get the Deployment. Absent: Create it. Present: if replicas or the
//     image differ, copy it, set them, Update it; if they match, write
//     nothing at all (a second Reconcile must not change the
//     resourceVersion).
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, exercise.NotDone("Reconcile in workshop/configmapcontroller/reconcile.go")
}
