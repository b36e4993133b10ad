package registry

import (
	"context"
	"errors"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// Delete deletes ns/name, or starts its deletion:
//
//	finalizers pending, or the kind waits (a namespace)  -> deletionTimestamp set, object stays
//	graceful kind with a grace period (a bound pod)      -> deletionTimestamp = now+grace, object stays
//	otherwise                                            -> removed from storage
//
// It returns the object (its final state, or its terminating state) and
// whether it is gone. validate is validating admission for the delete.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (Store.Delete).
func (s *Store) Delete(ctx context.Context, ns, name string, validate ValidateObjectFunc, opts *metav1.DeleteOptions) (runtime.Object, bool, error) {
	if opts == nil {
		opts = &metav1.DeleteOptions{}
	}
	key := s.Key(ns, name)
	current, err := s.Storage.Get(ctx, key, storage.GetOptions{})
	if err != nil {
		return nil, false, interpretGetError(err, s.GroupResource(), name)
	}
	if err := checkPreconditions(current, opts.Preconditions, s.GroupResource(), name); err != nil {
		return nil, false, err
	}
	if validate != nil {
		if err := validate(ctx, current, nil); err != nil {
			return nil, false, err
		}
	}
	dryRun := len(opts.DryRun) > 0

	wait, graceful := s.deletionMustWait(ctx, current, opts)
	if wait || graceful {
		out, err := s.markDeleting(ctx, key, name, opts, dryRun)
		if err != nil {
			return nil, false, err
		}
		// A finalized object waits; a graceful one waits unless its grace
		// period is already over (an explicit --grace-period=0).
		if wait || !s.readyToDelete(ctx, out) {
			return out, false, nil
		}
	}
	if dryRun {
		return s.setTypeMeta(current), true, nil
	}
	out, err := s.Storage.Delete(ctx, key, storage.DeleteOptions{Preconditions: storagePreconditions(opts.Preconditions)})
	if err != nil {
		return nil, false, interpretDeleteError(err, s.GroupResource(), name)
	}
	s.Logger.DebugContext(ctx, "deleted", "hop", "etcd.txn", "namespace", ns, "name", name,
		"rv", metav1.MustAccessor(out).ResourceVersion)
	s.afterDelete(ctx, out)
	return s.setTypeMeta(out), true, nil
}

// deletionMustWait asks the strategy and the finalizers whether obj can go
// now. wait means finalizers or the kind hold it; graceful means a grace
// period applies (in opts.GracePeriodSeconds).
func (s *Store) deletionMustWait(ctx context.Context, obj runtime.Object, opts *metav1.DeleteOptions) (wait, graceful bool) {
	check := obj.DeepCopyObject()
	if fs, ok := s.Strategy.(FinalizingDeleteStrategy); ok {
		wait = fs.PrepareForDelete(ctx, check)
	}
	if len(metav1.MustAccessor(obj).Finalizers) > 0 {
		wait = true
	}
	if gs, ok := s.Strategy.(GracefulDeleteStrategy); ok {
		// A grace period of 0 (an unscheduled pod, --grace-period=0) is
		// not graceful: the object goes in one write, with no MODIFIED
		// event before the DELETED one.
		graceful = gs.CheckGracefulDelete(ctx, check, opts) && opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds > 0
	}
	return wait, graceful
}

// markDeleting sets deletionTimestamp (and the grace period) on the stored
// object. A second delete may shorten a grace period, never lengthen it.
func (s *Store) markDeleting(ctx context.Context, key, name string, opts *metav1.DeleteOptions, dryRun bool) (runtime.Object, error) {
	mark := func(current runtime.Object) (runtime.Object, error) {
		if err := checkPreconditions(current, opts.Preconditions, s.GroupResource(), name); err != nil {
			return nil, err
		}
		if fs, ok := s.Strategy.(FinalizingDeleteStrategy); ok {
			fs.PrepareForDelete(ctx, current)
		}
		meta := metav1.MustAccessor(current)
		grace := int64(0)
		if gs, ok := s.Strategy.(GracefulDeleteStrategy); ok && gs.CheckGracefulDelete(ctx, current, opts) && opts.GracePeriodSeconds != nil {
			grace = *opts.GracePeriodSeconds
		}
		now := s.Clock.Now()
		if meta.DeletionTimestamp == nil {
			meta.Generation++
		}
		if meta.DeletionGracePeriodSeconds == nil || grace < *meta.DeletionGracePeriodSeconds || meta.DeletionTimestamp == nil {
			ts := metav1.NewTime(now.Add(time.Duration(grace) * time.Second))
			meta.DeletionTimestamp = &ts
			meta.DeletionGracePeriodSeconds = &grace
		}
		return current, nil
	}
	if dryRun {
		current, err := s.Storage.Get(ctx, key, storage.GetOptions{})
		if err != nil {
			return nil, interpretGetError(err, s.GroupResource(), name)
		}
		out, err := mark(current)
		if err != nil {
			return nil, err
		}
		return s.setTypeMeta(out), nil
	}
	out, err := s.Storage.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, mark)
	if err != nil {
		return nil, interpretUpdateError(err, s.GroupResource(), name)
	}
	return s.setTypeMeta(out), nil
}

// checkPreconditions returns 409 Conflict when the delete's preconditions
// do not hold, worded as Kubernetes words them.
func checkPreconditions(obj runtime.Object, p *metav1.Preconditions, gr runtime.GroupResource, name string) error {
	if p == nil {
		return nil
	}
	meta := metav1.MustAccessor(obj)
	if p.UID != nil && *p.UID != meta.UID {
		return apierrors.NewConflict(gr, name, errors.New("Precondition failed: UID in precondition: "+*p.UID+", UID in object meta: "+meta.UID))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != meta.ResourceVersion {
		return apierrors.NewConflict(gr, name, errors.New("Precondition failed: ResourceVersion in precondition: "+*p.ResourceVersion+", ResourceVersion in object meta: "+meta.ResourceVersion))
	}
	return nil
}

func storagePreconditions(p *metav1.Preconditions) *storage.Preconditions {
	if p == nil {
		return nil
	}
	return &storage.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
}

// DeleteCollection deletes every object in ns matching opts, one by one
// (each with its own graceful or finalizer handling), and returns the list
// of what it deleted or started deleting.
func (s *Store) DeleteCollection(ctx context.Context, ns string, validate ValidateObjectFunc, delOpts *metav1.DeleteOptions, listOpts ListOptions) (runtime.Object, error) {
	listOpts.Limit, listOpts.Continue = 0, ""
	list, err := s.List(ctx, ns, listOpts)
	if err != nil {
		return nil, err
	}
	items, err := runtime.ListItems(list)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var done []runtime.Object
	for _, item := range items {
		meta := metav1.MustAccessor(item)
		out, _, err := s.Delete(ctx, meta.Namespace, meta.Name, validate, delOpts)
		if apierrors.IsNotFound(err) {
			continue // deleted meanwhile: the goal is met
		}
		if err != nil {
			return nil, err
		}
		done = append(done, out)
	}
	if err := runtime.SetListItems(list, done); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return list, nil
}
