// Package cache is the scheduler's view of the cluster between scheduling
// cycles: one framework.NodeInfo per node, holding the node and the pods
// bound to it, with their requests summed. The scheduler's informer
// handlers keep it in step with the API server; the scheduling loop reads
// it through a Snapshot, once per cycle.
//
// Its one twist is the assumed pod. Binding is an API call, and the next
// cycle must not wait for it, nor for the watch event that confirms it. So
// the scheduling loop assumes the pod on its chosen node (AssumePod) and
// binds in the background; the next cycle already sees the node's
// resources taken. The pod's life in the cache:
//
//	          AssumePod                 AddPod (informer: bound)
//	(none) ------------> Assumed ----------------------------> Added
//	   ^                    |                                    |
//	   |     ForgetPod      |                                    | RemovePod
//	   +--------------------+  (bind failed)                     v
//	   +------------------------------------------------------ (none)
//
// A pod bound by someone else goes straight from (none) to Added. Pods the
// informer shows bound to a node the cache does not know yet (or any more)
// are kept in a NodeInfo without a Node, which a Snapshot leaves out.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/backend/cache (cacheImpl,
// Snapshot), without the expiry of assumed pods, which upstream disabled
// by default (durationToExpireAssumedPod = 0).
package cache
