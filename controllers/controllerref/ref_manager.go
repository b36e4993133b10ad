package controllerref

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// PatchFunc applies a strategic merge patch to the object name in the
// controller's namespace, as a typed client's Patch does.
type PatchFunc func(ctx context.Context, name string, patch []byte) error

// RefManager claims objects of one kind for one controller object. Make
// one per sync: it remembers whether adoption was allowed.
//
// Upstream: k8s.io/kubernetes/pkg/controller (BaseControllerRefManager).
type RefManager struct {
	// Controller is the owning object, as the informer has it.
	Controller *metav1.ObjectMeta
	// ControllerKind is its kind, written into the ownerReferences.
	ControllerKind runtime.GroupVersionKind
	// Selector says which objects the controller wants.
	Selector labels.Selector
	// CanAdopt is asked once, before the first adoption: it should read
	// the controller fresh from the API server and fail if it is being
	// deleted or was replaced (another UID), since the cached copy may be
	// stale and adopting for a deleted owner would get the object garbage
	// collected. Nil allows adoption.
	CanAdopt func(ctx context.Context) error
	// Patch writes adoptions and releases. Required.
	Patch PatchFunc

	canAdoptOnce sync.Once
	canAdoptErr  error
}

// Claim returns the objects among objs that belong to the controller once
// it has adopted or released what it must:
//
//   - owned by another controller: left alone;
//   - owned by this one and matching the selector: kept;
//   - owned by this one and not matching: released, unless the controller
//     is being deleted (the garbage collector deals with them then);
//   - orphaned, matching, in the controller's namespace, not being deleted,
//     with the controller not being deleted: adopted.
//
// An object that is gone by the time it is patched is skipped. Other
// errors are joined and returned with the objects claimed so far, so the
// caller retries while acting on what it owns.
func (m *RefManager) Claim(ctx context.Context, objs []metav1.Object) ([]metav1.Object, error) {
	var claimed []metav1.Object
	var errs []error
	for _, obj := range objs {
		ok, err := m.claimOne(ctx, obj.GetObjectMeta())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, obj)
		}
	}
	return claimed, errors.Join(errs...)
}

// claimOne is Claim for one object.
func (m *RefManager) claimOne(ctx context.Context, meta *metav1.ObjectMeta) (bool, error) {
	match := m.Selector.Matches(labels.Set(meta.Labels))
	if ref := meta.ControllerRef(); ref != nil {
		if ref.UID != m.Controller.UID {
			return false, nil
		}
		if match {
			return true, nil
		}
		if m.Controller.DeletionTimestamp != nil {
			return false, nil
		}
		return false, m.release(ctx, meta)
	}
	if !match || m.Controller.DeletionTimestamp != nil || meta.DeletionTimestamp != nil ||
		meta.Namespace != m.Controller.Namespace {
		return false, nil
	}
	if err := m.adopt(ctx, meta); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// adopt makes the controller the object's controller.
func (m *RefManager) adopt(ctx context.Context, meta *metav1.ObjectMeta) error {
	m.canAdoptOnce.Do(func() {
		if m.CanAdopt != nil {
			m.canAdoptErr = m.CanAdopt(ctx)
		}
	})
	if m.canAdoptErr != nil {
		// %v, not %w: a controller that is gone is an error here, not the
		// NotFound of an object that vanished, which Claim skips.
		return fmt.Errorf("can't adopt %s: %v", meta.Name, m.canAdoptErr)
	}
	patch, err := adoptPatch(NewControllerRef(m.Controller, m.ControllerKind), meta.UID)
	if err != nil {
		return err
	}
	return m.Patch(ctx, meta.Name, patch)
}

// release removes the controller's ownerReference from the object. An
// object that is gone, or was replaced (its uid changed, which the patch
// makes a 422), needs no release.
func (m *RefManager) release(ctx context.Context, meta *metav1.ObjectMeta) error {
	patch, err := releasePatch(m.Controller.UID, meta.UID)
	if err != nil {
		return err
	}
	err = m.Patch(ctx, meta.Name, patch)
	if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
		return nil
	}
	return err
}

// RecheckDeletionTimestamp returns a CanAdopt that calls get for a fresh
// copy of the controller and fails if it is being deleted or has another
// UID than the cached one.
//
// Upstream: k8s.io/kubernetes/pkg/controller (RecheckDeletionTimestamp).
func RecheckDeletionTimestamp(cached *metav1.ObjectMeta, get func(ctx context.Context) (*metav1.ObjectMeta, error)) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		fresh, err := get(ctx)
		if err != nil {
			return err
		}
		if fresh.UID != cached.UID {
			return fmt.Errorf("original %s/%s is gone: got uid %s, wanted %s", cached.Namespace, cached.Name, fresh.UID, cached.UID)
		}
		if fresh.DeletionTimestamp != nil {
			return fmt.Errorf("%s/%s has just been deleted at %v", cached.Namespace, cached.Name, fresh.DeletionTimestamp)
		}
		return nil
	}
}
