// Package garbagecollector is the garbage collector of the
// controller-manager: it deletes the objects whose owners are gone, and
// carries out the propagation policy a DELETE asked for. It sees the
// cluster only through the API server, as every controller does.
//
// Owners and dependents. An object names its owners in
// metadata.ownerReferences (a ReplicaSet owns its Pods). When every owner
// is gone, the dependent is garbage. The API server turns the
// propagationPolicy of a DELETE into finalizers, which the collector acts
// on:
//
//	Background (default)  owner deleted at once; the collector then deletes the dependents
//	Foreground            owner keeps "foregroundDeletion": the collector deletes the
//	                      dependents (their dependents first), then removes the finalizer;
//	                      dependents with blockOwnerDeletion=false do not hold the owner
//	Orphan                owner keeps "orphan": the collector removes the owner's reference
//	                      from every dependent, then the finalizer
//
// A dependent with another owner still alive is not deleted: only its
// references to absent owners are removed. A namespaced owner can only own
// objects of its own namespace (a reference across namespaces is reported
// as an OwnerRefInvalidNamespace event and counts as absent); a
// cluster-scoped owner can own anything; a cluster-scoped object cannot
// have a namespaced owner.
//
// How it works. Every resource the API server serves that can be listed,
// watched and deleted (events excepted) is watched, custom resources
// included: the collector reads discovery at start, every 30 seconds and
// at every change to a CustomResourceDefinition, and starts or stops a
// monitor (an informer and its handler) for each resource that appeared
// or went away. The resources in the manager's scheme when the collector
// is made (the built-in kinds, a program's own types) share the manager's
// informers; the others, found by discovery, get informers of the
// collector's own, their objects unstructured.Unstructured. The graph
// builder turns the monitors' changes, in order, into a graph of
// nodes by uid, with a virtual node for an owner referenced but never
// seen, and queues uids for the two controllers the GarbageCollector runs:
// attemptToDelete (is this object garbage? is this foreground deletion
// done?) and attemptToOrphan. Their workers decide from the API server's
// live answer, never from the cache alone: an owner is absent only when a
// GET says so, or returns another uid.
//
// Owner references are how Kubernetes builds object hierarchies: a
// Deployment owns its ReplicaSets and a ReplicaSet its Pods. The collector
// is what cleans such a hierarchy up once its top is deleted.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector.
package garbagecollector
