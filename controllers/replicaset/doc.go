// Package replicaset is the ReplicaSet controller: it keeps
// spec.replicas pods running for every ReplicaSet, creating pods from the
// template when there are too few and deleting the least useful ones when
// there are too many, and reports what it sees in the ReplicaSet's status.
//
// It is the second control loop a Deployment goes through (deployment
// controller -> replicaset controller -> scheduler -> kubelet): the
// Deployment controller writes ReplicaSets, this controller turns them
// into Pods with an ownerReference back to their ReplicaSet, and the
// scheduler and the kubelets take the pods from there. Like every
// controller it sees the cluster only through the API server: it reads
// ReplicaSets and Pods from the Manager's informer cache and writes
// through the typed client.
//
// One sync of a ReplicaSet (Reconciler.Reconcile):
//
//  1. read the ReplicaSet from the cache; gone: forget its expectations;
//  2. list its namespace's pods and keep the active ones (not Succeeded
//     or Failed, not being deleted);
//  3. claim them (controllerref): adopt matching orphans, release owned
//     pods whose labels no longer match;
//  4. if the expectations of earlier syncs are met and the ReplicaSet is
//     not being deleted, create or delete pods, at most BurstReplicas, in
//     slow-start batches;
//  5. write the status subresource when it changed, and come back when a
//     ready pod is due to become available (minReadySeconds).
//
// The pod event handler feeds the expectations (a pod created or deleted
// by the controller is "observed" when the informer delivers it) and
// wakes the ReplicaSets a pod change concerns: its controller, or the
// ReplicaSets whose selector matches an orphan.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (replica_set.go,
// replica_set_utils.go) and the pod helpers of
// k8s.io/kubernetes/pkg/controller (controller_utils.go).
package replicaset
