// Package scheduler is minicp's kube-scheduler: the loop that finds every
// pod with no node, picks a node for it and binds it there. It sees the
// cluster only through the API server, as the real one does:
//
//	pod, node informers ──> handlers ──> cache (NodeInfo per node, assumed pods)
//	                                 └─> SchedulingQueue (activeQ, backoffQ, unschedulablePods)
//	scheduling loop: Pop ─> snapshot of the cache ─> framework.SchedulePod
//	   ├─ fits:   assume the pod on the node ─> bind in the background:
//	   │          POST pods/{name}/binding ─> Event Scheduled
//	   └─ no fit: Event FailedScheduling, PodScheduled=False (Unschedulable),
//	              pod waits in unschedulablePods for a node or pod event
//
// Scheduler.Start runs it all until its context ends; Ready says when the
// informers have synced, and Idle and WaitIdle when the scheduler has
// nothing left to do on its own (a quiescence barrier for tests).
//
// The pieces, in the order a pod meets them:
//
//   - event_handlers.go: the informer handlers. Unscheduled pods whose
//     spec.schedulerName names a profile go to the queue; bound pods to
//     the cache; node changes to the cache, and those that could make a
//     rejected pod fit (a node added; its allocatable, labels, taints,
//     unschedulable flag or conditions changed; a bound pod gone) move the
//     rejected pods back (MoveAllToActiveOrBackoffQueue);
//   - internal/queue: the SchedulingQueue, with per-pod exponential backoff
//     (podInitialBackoffSeconds, podMaxBackoffSeconds) and the periodic
//     flush of pods left unschedulable for five minutes, on the clock;
//   - internal/cache: the NodeInfos, with assumed pods, and the per-cycle
//     Snapshot;
//   - schedule_one.go: one scheduling cycle and its binding cycle (up to
//     32 bindings run at once, behind the one scheduling loop), and the
//     failure handling that records FailedScheduling;
//   - idle.go: Idle and WaitIdle.
//
// Filtering and scoring themselves are scheduler/framework's, with the
// plugins of scheduler/plugins, configured by scheduler/config.
//
// Logging: Info for the lifecycle (starting, ready, stopping, stopped);
// Debug records with a hop attribute trace a pod through the scheduler:
// "scheduler.filter" (per-node filter results) and "scheduler.score"
// (per-node, per-plugin scores) from the framework, and "scheduler.bind"
// from the binding cycle.
//
// It is the scheduler as Kubernetes has it: it learns of new pods through
// a watch on the API server, runs predicates (filters) and priorities
// (scores) over the nodes, and binds each pod it places to its node.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler (scheduler.go, schedule_one.go,
// eventhandlers.go).
package scheduler
