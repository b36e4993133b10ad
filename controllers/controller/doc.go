// Package controller makes a controller by hand: New registers it with a
// Manager, Watch adds its sources, and the Manager starts it (on the
// leader). Most controllers are made with controllers/builder instead,
// which calls this package.
//
// A controller is a workqueue of reconcile.Requests fed by its sources'
// event handlers, and MaxConcurrentReconciles workers calling the
// Reconciler:
//
//	source -> handler -> workqueue (fold, delay, rate limit) -> workers -> Reconciler
//
// It guarantees what makes a Reconciler simple to write: one Request is
// never reconciled by two workers at once; many events for one object
// fold into one Request; a Request added while it is being reconciled is
// reconciled again afterwards; errors are retried with per-object
// exponential backoff; a panic is recovered into an error.
//
// Each worker runs the control loop: take a Request, read the current
// state, act to move it towards the spec, requeue on error.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller.
package controller
