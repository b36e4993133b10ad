// Package controller is the machinery behind controllers/controller: the
// worker loop that takes Requests from the queue, calls the Reconciler
// and acts on its answer, and the queue that makes Idle exact. Workshop
// code uses controllers/controller and controllers/builder; this package
// is internal so the loop can change without breaking them.
//
// Where it sits on the watch path:
//
//	source -> handler -> queue.Add -> worker: queue.get -> Reconcile -> queue.done
//
// Each worker runs the control loop: take a Request, read the current
// state, act to move it towards the spec, requeue on error. The loop is
// level-triggered: a Request names an object, never an event, so events
// that fold together or arrive late cost nothing, since the next
// reconcile reads the latest state.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/internal/controller.
package controller
