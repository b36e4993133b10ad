// Package disruption is the disruption controller: it keeps the status of
// every PodDisruptionBudget, the numbers the pods/eviction subresource
// decides on.
//
// For each budget it lists the pods the selector picks (from the shared
// cache) and computes, as upstream does:
//
//	expectedPods    the pods selected, for an integer minAvailable; else
//	                the sum of the replicas their controllers ask for
//	                (Deployment, ReplicaSet, StatefulSet, or any kind with
//	                a scale subresource)
//	desiredHealthy  minAvailable, or expectedPods - maxUnavailable
//	currentHealthy  the ready pods, not being deleted and not recently
//	                evicted (in disruptedPods)
//	disruptionsAllowed = currentHealthy - desiredHealthy, at least 0, and
//	                0 while no pod is expected
//
// with the DisruptionAllowed condition and observedGeneration. An entry of
// disruptedPods whose pod is still not being deleted DeletionTimeout after
// the eviction is dropped (the eviction did not happen after all); the
// controller looks again when the oldest entry expires, on the manager's
// clock. A budget whose status cannot be computed (a selected pod's
// controller is gone, a kind has no scale subresource) gets
// disruptionsAllowed 0 and the condition False with reason SyncFailed:
// the controller fails closed.
//
// A second loop resets the DisruptionTarget condition of pods that kept
// it for stalePodDisruptionTimeout without being deleted, as upstream.
//
// Add registers both on a Manager.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption.
package disruption
