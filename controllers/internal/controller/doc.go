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
// Kubernetes' design ("The Control Loop") is the loop each worker runs; Kubernetes' design
// ("Kubernetes Controllers") the reason it is level-triggered.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/internal/controller.
package controller
