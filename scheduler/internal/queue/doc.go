// Package queue is the scheduler's SchedulingQueue: where unscheduled pods
// wait between the informer that announced them and the scheduling cycle
// that places them. It sits on the scheduler's side of the watch path:
//
//	pod informer -> PriorityQueue.Add -> activeQ -> Pop -> scheduling cycle
//	                                        ^              | no fit / error
//	         MoveAllToActiveOrBackoffQueue  |              v
//	         (node added, pod deleted, ...) +-- unschedulablePods / backoffQ
//
// A pod is in at most one of three places, keyed by namespace/name:
//
//   - activeQ, a heap ordered by spec.priority (highest first), then by the
//     time the pod was queued, then by arrival: the pods to schedule next;
//   - backoffQ, a heap ordered by backoff expiry: pods that failed and wait
//     out a per-pod exponential backoff (1s, 2s, 4s, ... capped at 10s by
//     default) before they return to activeQ;
//   - unschedulablePods, a map: pods no node fits, waiting for a cluster
//     event that could change that (a node added, a bound pod deleted) or,
//     failing that, for the periodic flush after five minutes.
//
// Pop hands a pod to a scheduling cycle and counts it "in flight" until
// the cycle (and its binding) calls Done. Run moves pods whose backoff or
// five minutes ran out, on timers of the injected clock.
//
// It is the hand-over between the scheduler's watch on pods, which
// announces each new pod, and the scheduling loop, which places it.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/backend/queue
// (scheduling_queue.go), in the form it had before QueueingHints: a
// moveRequestCycle instead of in-flight event lists, and EventsToRegister
// per plugin as the event filter.
package queue
