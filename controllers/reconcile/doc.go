// Package reconcile defines what a controller does with one object: the
// Reconciler, the Request naming the object and the Result saying whether
// and when to come back. It is the last step of the watch path:
//
//	informer handler -> workqueue -> worker -> Reconciler.Reconcile(ctx, Request)
//
// A Reconciler is level-triggered: a Request carries only a namespace and
// a name, never the event that caused it, so Reconcile reads the current
// state (from the cache), compares it with the desired state, and acts. It
// must be idempotent, because many events for one object fold into one
// Request and a failed Request is retried.
//
// The controller acts on what Reconcile returns:
//
//   - an error: retried with per-object exponential backoff;
//   - TerminalError(err): logged, never retried;
//   - Result{RequeueAfter: d}: reconciled again after d;
//   - Result{Requeue: true}: retried with backoff, without an error;
//   - Result{}: done until the next event.
//
// One Reconcile is one turn of the control loop every controller runs:
// read the state, change the world, update status, repeat.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/reconcile.
package reconcile
