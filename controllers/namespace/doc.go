// Package namespace is the namespace controller: it finishes what
// `kubectl delete namespace` starts. The API server only marks a deleted
// namespace Terminating (a deletionTimestamp, status.phase Terminating)
// and keeps it while spec.finalizers holds "kubernetes"; the
// NamespaceLifecycle admission plugin refuses new content in it
// meanwhile. This controller then, for each such namespace:
//
//  1. waits namespaceDeletionGracePeriod after the deletion, so that every
//     API server refuses new content before the cleanup starts;
//  2. deletes its pods and waits until they are gone (upstream's
//     OrderedNamespaceDeletion: no pod outlives the secrets, configmaps
//     and service accounts it uses);
//  3. deletes the content of every other namespaced resource discovery
//     lists, custom resources included: DeleteCollection where the
//     resource has deletecollection, otherwise list and delete each
//     object;
//  4. reports progress in status.conditions (NamespaceContentRemaining,
//     NamespaceFinalizersRemaining, NamespaceDeletionContentFailure, ...)
//     and looks again after an estimate of the remaining graceful
//     termination, as pods take their grace period to stop and objects
//     with finalizers wait for their owners;
//  5. once nothing is left, removes "kubernetes" from spec.finalizers
//     through namespaces/{name}/finalize, after which the API server
//     removes the namespace (if no other finalizer remains).
//
// It sees the cluster only through the API server: the namespaces through
// the Manager's cache, which resources exist through discovery (read at
// every pass), and their objects through the generic client.
//
// Of the controller-manager's controllers, this is the one that makes a
// namespace's deletion cascade to its content.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace and its deletion
// package (namespaced_resources_deleter.go, status_condition_utils.go).
package namespace
