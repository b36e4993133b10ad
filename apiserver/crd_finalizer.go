package apiserver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
)

// finalize runs the customresourcecleanup finalizer of a deleted CRD: it
// deletes every object of the resource (each as a client's delete would,
// so objects with finalizers of their own wait for their controllers),
// waits until none is left, and then removes the finalizer, which lets
// the CRD go. It returns whether it removed the finalizer; on an error
// it returns false early, and the controller starts it again.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/finalizer (CRDFinalizer.sync).
func (c *crdController) finalize(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) bool {
	log := c.s.log.With("crd", crd.Name)
	c.setCondition(ctx, crd.Name, apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue,
		Reason: apiextensionsv1.ReasonInstanceDeletionInProgress, Message: "CustomResource deletion is in progress",
	})
	if store := c.storageVersionStore(crd); store != nil {
		if err := deleteAll(ctx, store); err != nil {
			if ctx.Err() == nil {
				log.Warn("custom resources not deleted", "err", err)
				c.setCondition(ctx, crd.Name, apiextensionsv1.CustomResourceDefinitionCondition{
					Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue,
					Reason: "InstanceDeletionFailed", Message: fmt.Sprintf("could not delete instances: %v", err),
				})
			}
			return false
		}
	}
	c.setCondition(ctx, crd.Name, apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionFalse,
		Reason: apiextensionsv1.ReasonInstanceDeletionCompleted, Message: "removed all instances",
	})
	_, _, err := c.store.Update(ctx, "", crd.Name, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
		if old == nil {
			return nil, apierrors.NewNotFound(gvrCRDs.GroupResource(), crd.Name)
		}
		out := old.(*apiextensionsv1.CustomResourceDefinition).DeepCopy()
		out.Finalizers = slices.DeleteFunc(out.Finalizers, func(f string) bool { return f == apiextensionsv1.CustomResourceCleanupFinalizer })
		return out, nil
	}, nil, nil, registry.UpdateOptions{})
	switch {
	case err == nil, apierrors.IsNotFound(err):
		return true
	case ctx.Err() == nil:
		log.Warn("finalizer not removed", "err", err)
	}
	return false
}

// storageVersionStore returns the registry store of the CRD's storage
// version, or nil when it is not served (then no object can exist that
// this server wrote... or that a client can see).
func (c *crdController) storageVersionStore(crd *apiextensionsv1.CustomResourceDefinition) *registry.Store {
	for _, gvr := range c.servedGVRsOf(crd.Name) {
		for _, v := range crd.Spec.Versions {
			if v.Storage && v.Name == gvr.Version {
				store, _ := c.s.Store(gvr)
				return store
			}
		}
	}
	// The storage version is not served: any served version reads the
	// same objects.
	for _, gvr := range c.servedGVRsOf(crd.Name) {
		store, _ := c.s.Store(gvr)
		return store
	}
	return nil
}

// servedGVRsOf is servedGVRs for the finalizer's goroutine: it reads the
// server's routes, not the controller's map, which belongs to the run
// goroutine.
func (c *crdController) servedGVRsOf(name string) []runtime.GroupVersionResource {
	c.s.mu.RLock()
	defer c.s.mu.RUnlock()
	var out []runtime.GroupVersionResource
	for gvr, r := range c.s.resources {
		if r.crd == name {
			out = append(out, gvr)
		}
	}
	return out
}

// deleteAll deletes every object of store's resource and returns once
// none is left (objects with finalizers go when their controllers remove
// them) or ctx is done. It waits on a watch, never by polling.
func deleteAll(ctx context.Context, store *registry.Store) error {
	for {
		list, err := store.List(ctx, "", registry.ListOptions{})
		if err != nil {
			return err
		}
		items, err := runtime.ListItems(list)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return nil
		}
		for _, item := range items {
			meta := metav1.MustAccessor(item)
			if meta.DeletionTimestamp != nil {
				continue
			}
			if _, _, err := store.Delete(ctx, meta.Namespace, meta.Name, nil, nil); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
		// Wait for the next change after the list, then look again.
		w, err := store.Watch(ctx, "", registry.ListOptions{ResourceVersion: list.(metav1.ListInterface).GetListMeta().ResourceVersion})
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
		case _, ok := <-w.ResultChan():
			if !ok {
				err = errors.New("watch closed")
			}
		}
		w.Stop()
		if err != nil || ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
	}
}

// setCondition writes one condition of a CRD's status, logging a failure:
// conditions tell a user where a deletion stands, they do not decide it.
func (c *crdController) setCondition(ctx context.Context, name string, cond apiextensionsv1.CustomResourceDefinitionCondition) {
	_, _, err := c.status.Update(ctx, "", name, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
		if old == nil {
			return nil, apierrors.NewNotFound(gvrCRDs.GroupResource(), name)
		}
		out := old.(*apiextensionsv1.CustomResourceDefinition).DeepCopy()
		apiextensionsv1.SetCRDCondition(out, cond, metav1.NewTime(c.s.clock.Now()))
		return out, nil
	}, nil, nil, registry.UpdateOptions{})
	if err != nil && !apierrors.IsNotFound(err) && ctx.Err() == nil {
		c.s.log.Warn("CRD condition not written", "crd", name, "err", err)
	}
}
