package garbagecollector

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// resourceClient is the generic client of any resource.
type resourceClient = client.Resource[metav1.Object, metav1.ListInterface]

// apiResource finds the resource serving apiVersion and kind through
// discovery, and makes sure the client's scheme decodes its objects: a
// custom resource the scheme does not know is registered as unstructured.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.apiResource), through the REST mapper.
func (gc *GarbageCollector) apiResource(ctx context.Context, apiVersion, kind string) (runtime.ResourceInfo, error) {
	info, err := gc.restMapper.resourceFor(ctx, runtime.ParseGroupVersion(apiVersion).WithKind(kind))
	if err != nil {
		return runtime.ResourceInfo{}, err
	}
	if err := client.AddUnstructuredResource(gc.scheme, info); err != nil {
		return runtime.ResourceInfo{}, fmt.Errorf("garbage collector: %w", err)
	}
	return info, nil
}

// resourceFor returns the client of ref's resource, scoped to ref's
// namespace when the resource is namespaced (a cluster-scoped owner of a
// namespaced dependent has no namespace). A namespaced kind without a
// namespace is errNamespacedOwnerOfClusterScopedObject.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.getObject), which makes the same check.
func (gc *GarbageCollector) resourceFor(ctx context.Context, ref objectReference) (*resourceClient, error) {
	info, err := gc.apiResource(ctx, ref.APIVersion, ref.Kind)
	if err != nil {
		return nil, err
	}
	if info.Namespaced && ref.Namespace == "" {
		// Only a cluster-scoped dependent names a namespaced owner without
		// a namespace: an invalid reference, not an absent owner.
		return nil, errNamespacedOwnerOfClusterScopedObject
	}
	if ref.Name == "" {
		return nil, apierrors.NewNotFound(info.GVR.GroupResource(), ref.Name)
	}
	res, err := client.NewResource[metav1.Object, metav1.ListInterface](gc.client, info.GVR)
	if err != nil {
		return nil, fmt.Errorf("garbage collector: %w", err)
	}
	if info.Namespaced {
		res = res.Namespace(ref.Namespace)
	}
	return res, nil
}

// getObject reads ref's object from the API server, not the cache: a
// deletion must never rest on a stale view.
func (gc *GarbageCollector) getObject(ctx context.Context, ref objectReference) (*metav1.ObjectMeta, error) {
	res, err := gc.resourceFor(ctx, ref)
	if err != nil {
		return nil, err
	}
	obj, err := res.Get(ctx, ref.Name, client.GetOptions{})
	if err != nil {
		return nil, err
	}
	return obj.GetObjectMeta(), nil
}

// deleteObject deletes ref's object with policy, on condition that it is
// still the object of that uid and, when resourceVersion is set, still at
// that version: the decision to delete was made from that state. If only
// something other than the ownerReferences changed since, the delete is
// retried without the version, so an object updated often (a status) is
// not spared forever.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.deleteObject).
func (gc *GarbageCollector) deleteObject(ctx context.Context, ref objectReference, resourceVersion string,
	ownersAtResourceVersion []metav1.OwnerReference, policy metav1.DeletionPropagation) error {
	res, err := gc.resourceFor(ctx, ref)
	if err != nil {
		return err
	}
	uid := ref.UID
	opts := metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}, PropagationPolicy: &policy}
	if resourceVersion != "" {
		opts.Preconditions.ResourceVersion = &resourceVersion
	}
	err = res.Delete(ctx, ref.Name, opts)
	if !apierrors.IsConflict(err) || resourceVersion == "" {
		return err
	}
	live, liveErr := res.Get(ctx, ref.Name, client.GetOptions{})
	if apierrors.IsNotFound(liveErr) {
		return nil // gone meanwhile: what we wanted
	}
	if liveErr != nil {
		return err
	}
	meta := live.GetObjectMeta()
	if meta.UID == ref.UID && meta.ResourceVersion != resourceVersion &&
		slices.EqualFunc(meta.OwnerReferences, ownersAtResourceVersion, ownerReferenceEqual) {
		opts.Preconditions.ResourceVersion = nil
		return res.Delete(ctx, ref.Name, opts)
	}
	return err
}

// patchOwnerReferences applies a strategic merge patch to the
// ownerReferences of n's object. The patch names n's uid, so it fails
// rather than change another object that took the name since.
func (gc *GarbageCollector) patchOwnerReferences(ctx context.Context, n *node, refs []map[string]any) error {
	res, err := gc.resourceFor(ctx, n.identity)
	if err != nil {
		return err
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"uid": n.identity.UID, "ownerReferences": refs}})
	if err != nil {
		return fmt.Errorf("garbage collector: %w", err)
	}
	_, err = res.Patch(ctx, n.identity.Name, client.StrategicMergePatchType, patch, client.WriteOptions{})
	return err
}

// deleteOwnerReferences removes the references to ownerUIDs from n's
// object.
//
// Upstream: k8s.io/kubernetes/pkg/controller (GenerateDeleteOwnerRefStrategicMergeBytes).
func (gc *GarbageCollector) deleteOwnerReferences(ctx context.Context, n *node, ownerUIDs ...string) error {
	refs := make([]map[string]any, 0, len(ownerUIDs))
	for _, uid := range ownerUIDs {
		refs = append(refs, map[string]any{"$patch": "delete", "uid": uid})
	}
	return gc.patchOwnerReferences(ctx, n, refs)
}

// unblockOwnerReferences sets blockOwnerDeletion=false on every blocking
// reference of n's object.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (node.unblockOwnerReferencesStrategicMergePatch).
func (gc *GarbageCollector) unblockOwnerReferences(ctx context.Context, n *node) error {
	var refs []map[string]any
	for _, ref := range n.getOwners() {
		if isBlocking(ref) {
			refs = append(refs, map[string]any{"apiVersion": ref.APIVersion, "kind": ref.Kind, "name": ref.Name,
				"uid": ref.UID, "blockOwnerDeletion": false})
		}
	}
	if len(refs) == 0 {
		return nil
	}
	return gc.patchOwnerReferences(ctx, n, refs)
}

// maxFinalizerAttempts bounds the read-modify-write attempts of
// removeFinalizer: a conflict means someone wrote the object since it was
// read, and a fresh read almost always wins the next time; past that, the
// queue's backoff takes over.
const maxFinalizerAttempts = 5

// finalizerRetry reads and patches again at once: the write that won the
// race has already landed, so the fresh read sees it.
var finalizerRetry = wait.Backoff{Steps: maxFinalizerAttempts}

// removeFinalizer removes finalizer from n's object with a merge patch
// conditional on the resourceVersion read, so no other change is lost. An
// object already gone, or without the finalizer, is done.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.removeFinalizer).
func (gc *GarbageCollector) removeFinalizer(ctx context.Context, n *node, finalizer string) error {
	res, err := gc.resourceFor(ctx, n.identity)
	if err != nil {
		return err
	}
	return client.RetryOnConflict(ctx, finalizerRetry, func() error {
		obj, err := res.Get(ctx, n.identity.Name, client.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("remove finalizer %s from %s: %w", finalizer, n.identity, err)
		}
		meta := obj.GetObjectMeta()
		if meta.UID != n.identity.UID || !slices.Contains(meta.Finalizers, finalizer) {
			return nil // another object now, or already done
		}
		kept := slices.DeleteFunc(slices.Clone(meta.Finalizers), func(f string) bool { return f == finalizer })
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"resourceVersion": meta.ResourceVersion, "finalizers": kept}})
		if err != nil {
			return fmt.Errorf("garbage collector: %w", err)
		}
		_, err = res.Patch(ctx, n.identity.Name, client.MergePatchType, patch, client.WriteOptions{})
		if err == nil || apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("remove finalizer %s from %s: %w", finalizer, n.identity, err)
	})
}
