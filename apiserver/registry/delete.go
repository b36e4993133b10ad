package registry

import (
	"context"
	"errors"
	"slices"
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
// The propagation policy of opts decides the garbage collector's
// finalizers first (see deletionFinalizers): Orphan (or the deprecated
// orphanDependents=true) adds "orphan", Foreground adds
// "foregroundDeletion", so the object waits for the collector; Background,
// the default of every minicp resource, adds neither, and removes them
// from an object already being deleted, which may then go at once.
//
// It returns the object (its final state, or its terminating state) and
// whether it is gone. validate is validating admission for the delete.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (Store.Delete,
// Store.updateForGracefulDeletionAndFinalizers).
func (s *Store) Delete(ctx context.Context, ns, name string, validate ValidateObjectFunc, opts *metav1.DeleteOptions) (runtime.Object, bool, error) {
	if opts == nil {
		opts = &metav1.DeleteOptions{}
	}
	if err := validateDeleteOptions(opts); err != nil {
		return nil, false, err
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
	preconditions := storagePreconditions(opts.Preconditions)
	if wait || graceful {
		out, err := s.markDeleting(ctx, key, name, opts, dryRun)
		if err != nil {
			return nil, false, err
		}
		// The object stays while finalizers or the kind hold it, or its
		// grace period runs; it goes now only if marking it left nothing
		// to wait for (an explicit --grace-period=0).
		if !s.readyToDelete(ctx, out) {
			return out, false, nil
		}
		if preconditions != nil && preconditions.ResourceVersion != nil {
			// The mark was a write: the precondition held for the
			// version it replaced, which is no longer stored.
			rv := metav1.MustAccessor(out).ResourceVersion
			preconditions.ResourceVersion = &rv
		}
	}
	if dryRun {
		return s.setTypeMeta(current), true, nil
	}
	out, err := s.Storage.Delete(ctx, key, storage.DeleteOptions{Preconditions: preconditions})
	if err != nil {
		return nil, false, interpretDeleteError(err, s.GroupResource(), name)
	}
	s.afterDelete(ctx, out)
	return s.setTypeMeta(out), true, nil
}

// validateDeleteOptions rejects options that contradict each other. The
// handler has checked each field already; this is the check across them,
// made here so that every caller of the Store gets it.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/validation
// (ValidateDeleteOptions).
func validateDeleteOptions(opts *metav1.DeleteOptions) error {
	if opts.OrphanDependents != nil && opts.PropagationPolicy != nil {
		return apierrors.NewInvalid(runtime.GroupVersionKind{Group: "meta.k8s.io", Version: "v1", Kind: "DeleteOptions"}, "",
			apierrors.FieldErrors{apierrors.Invalid("propagationPolicy", *opts.PropagationPolicy,
				"orphanDependents and deletionPropagation cannot be both set")})
	}
	return nil
}

// deletionMustWait asks the strategy and the finalizers (those obj has,
// with the garbage collector's as opts decides) whether obj can go now.
// wait means finalizers or the kind hold it; graceful means a grace period
// applies (in opts.GracePeriodSeconds).
func (s *Store) deletionMustWait(ctx context.Context, obj runtime.Object, opts *metav1.DeleteOptions) (wait, graceful bool) {
	check := obj.DeepCopyObject()
	if fs, ok := s.Strategy.(FinalizingDeleteStrategy); ok {
		wait = fs.PrepareForDelete(ctx, check)
	}
	meta := metav1.MustAccessor(obj)
	finalizers := meta.Finalizers
	if !gracefulDeletionPending(meta, opts) {
		finalizers = deletionFinalizers(meta.Finalizers, opts)
	}
	if len(finalizers) > 0 {
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
// object, and its garbage collector finalizers as opts decides. A second
// delete may shorten a grace period, never lengthen it; one that does not
// shorten a running grace period changes nothing, finalizers included.
func (s *Store) markDeleting(ctx context.Context, key, name string, request *metav1.DeleteOptions, dryRun bool) (runtime.Object, error) {
	mark := func(current runtime.Object) (runtime.Object, error) {
		// CheckGracefulDelete writes the grace period it settles on into
		// its options, and an update function may run again (a stale
		// cached object first, then the stored one): each attempt starts
		// from the request's options, so an unbound pod's 0 seen first
		// does not carry over to the bound pod it turned out to be.
		opts := runtime.DeepCopy(request)
		if err := checkPreconditions(current, opts.Preconditions, s.GroupResource(), name); err != nil {
			return nil, err
		}
		if fs, ok := s.Strategy.(FinalizingDeleteStrategy); ok {
			fs.PrepareForDelete(ctx, current)
		}
		meta := metav1.MustAccessor(current)
		// Read before the grace period below changes it: upstream decides
		// this in BeforeDelete, before touching the object.
		if !gracefulDeletionPending(meta, opts) {
			meta.Finalizers = deletionFinalizers(meta.Finalizers, opts)
		}
		grace := int64(0)
		if gs, ok := s.Strategy.(GracefulDeleteStrategy); ok && gs.CheckGracefulDelete(ctx, current, opts) && opts.GracePeriodSeconds != nil {
			grace = *opts.GracePeriodSeconds
		}
		now := s.Clock.Now()
		// Only a kind that keeps a generation has one to bump: 0 stays 0.
		//
		// Upstream: markAsDeleting and rest.BeforeDelete.
		if meta.DeletionTimestamp == nil && meta.Generation > 0 {
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

// gracefulDeletionPending reports a graceful deletion already running that
// opts does not shorten: such a delete only reports the object, and in
// particular cannot change its finalizers. The grace period opts carries
// is the one the request (or the strategy's default) asks for.
//
// Upstream: k8s.io/apiserver/pkg/registry/rest (BeforeDelete, its
// gracefulPending result).
func gracefulDeletionPending(meta *metav1.ObjectMeta, opts *metav1.DeleteOptions) bool {
	if meta.DeletionTimestamp == nil || meta.DeletionGracePeriodSeconds == nil || *meta.DeletionGracePeriodSeconds == 0 {
		return false
	}
	return opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds >= *meta.DeletionGracePeriodSeconds
}

// deletionFinalizers returns the finalizers an object being deleted with
// opts must carry: its own, with the garbage collector's two replaced by
// the one opts asks for. Precedence, highest first: orphanDependents, then
// propagationPolicy, then the collector finalizer the object already has
// (a repeated delete keeps the policy of the first), then the resource's
// default, Background, which needs none. It returns finalizers itself when
// nothing changes.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry
// (deletionFinalizersForGarbageCollection, shouldOrphanDependents,
// shouldDeleteDependents).
func deletionFinalizers(finalizers []string, opts *metav1.DeleteOptions) []string {
	orphan, foreground := false, false
	switch {
	case opts.OrphanDependents != nil:
		orphan = *opts.OrphanDependents
	case opts.PropagationPolicy != nil:
		orphan = *opts.PropagationPolicy == metav1.DeletePropagationOrphan
		foreground = *opts.PropagationPolicy == metav1.DeletePropagationForeground
	default:
		// Validation forbids both on one object; the first one found wins,
		// as upstream.
		for _, f := range finalizers {
			if f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents {
				orphan, foreground = f == metav1.FinalizerOrphanDependents, f == metav1.FinalizerDeleteDependents
				break
			}
		}
	}
	out := make([]string, 0, len(finalizers)+1)
	for _, f := range finalizers {
		if f != metav1.FinalizerOrphanDependents && f != metav1.FinalizerDeleteDependents {
			out = append(out, f)
		}
	}
	if orphan {
		out = append(out, metav1.FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, metav1.FinalizerDeleteDependents)
	}
	if sameSet(out, finalizers) {
		return finalizers
	}
	return out
}

// sameSet reports whether a and b hold the same strings, ignoring order
// and repeats.
func sameSet(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			return false
		}
	}
	return true
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
	if delOpts == nil {
		delOpts = &metav1.DeleteOptions{}
	}
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
		// Each item gets its own copy: a graceful strategy writes its
		// grace period into the options, which must not carry over to
		// the next item (an unscheduled pod's 0 to a bound pod).
		opts := *delOpts
		out, _, err := s.Delete(ctx, meta.Namespace, meta.Name, validate, &opts)
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
	clearItemsTypeMeta(list)
	return list, nil
}
