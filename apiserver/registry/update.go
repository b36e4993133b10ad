package registry

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// UpdateOptions tunes Update.
type UpdateOptions struct {
	// DryRun runs every step but the storage write.
	DryRun bool
	// ForceAllowCreate creates a missing object even when the Strategy
	// does not allow create-on-update: a server-side apply creates what
	// it applies.
	ForceAllowCreate bool
}

// Update replaces ns/name with what newObj computes from the stored object,
// as PUT and PATCH do. The write is optimistic: if the new object carries a
// resourceVersion that is not the stored one, the result is 409 Conflict
// and nothing is written. created reports a create-on-update.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (Store.Update).
func (s *Store) Update(ctx context.Context, ns, name string, newObj UpdatedObjectFunc,
	validateCreate, validateUpdate ValidateObjectFunc, opts UpdateOptions) (out runtime.Object, created bool, err error) {
	key := s.Key(ns, name)
	// finish ends the allocation hook of the latest attempt: an attempt
	// that lost a storage race releases what it took before the retry, a
	// stored one keeps it, and a failed or dry-run update releases it here.
	finish := FinishFunc(finishNothing)
	defer func() { finish(ctx, false) }()
	tryUpdate := func(current runtime.Object) (runtime.Object, error) {
		finish(ctx, false)
		finish = finishNothing
		created = false
		if metav1.MustAccessor(current).ResourceVersion == "" {
			// Storage hands a zero object to an upsert when nothing is there.
			if !s.Strategy.AllowCreateOnUpdate() && !opts.ForceAllowCreate {
				return nil, apierrors.NewNotFound(s.GroupResource(), name)
			}
			obj, err := newObj(ctx, nil)
			if err != nil {
				return nil, err
			}
			if err := s.checkIdentity(obj, ns, name); err != nil {
				return nil, err
			}
			created = true
			f, err := s.beforeCreate(ctx, obj, opts.DryRun)
			if err != nil {
				return nil, err
			}
			finish = f
			if validateCreate != nil {
				if err := validateCreate(ctx, obj, nil); err != nil {
					return nil, err
				}
			}
			return obj, nil
		}
		obj, f, err := s.updateFrom(ctx, current, ns, name, newObj, validateUpdate, opts.DryRun)
		finish = f
		return obj, err
	}

	if opts.DryRun {
		current, err := s.Storage.Get(ctx, key, storage.GetOptions{IgnoreNotFound: true})
		if err != nil {
			return nil, false, interpretUpdateError(err, s.GroupResource(), name)
		}
		out, err := tryUpdate(current)
		if err != nil {
			return nil, false, interpretUpdateError(err, s.GroupResource(), name)
		}
		return s.setTypeMeta(out), created, nil
	}

	out, err = s.Storage.GuaranteedUpdate(ctx, key, storage.UpdateOptions{IgnoreNotFound: true}, tryUpdate)
	if err != nil {
		return nil, false, interpretUpdateError(err, s.GroupResource(), name)
	}
	finish(ctx, true)
	finish = finishNothing
	meta := metav1.MustAccessor(out)
	if s.readyToDelete(ctx, out) {
		// The last finalizer is gone from an object being deleted: finish
		// the delete now, but only if nobody changed it since.
		rv := meta.ResourceVersion
		deleted, err := s.Storage.Delete(ctx, key, storage.DeleteOptions{Preconditions: &storage.Preconditions{ResourceVersion: &rv}})
		switch {
		case err == nil:
			s.afterDelete(ctx, deleted)
			return s.setTypeMeta(deleted), false, nil
		case errors.Is(err, storage.ErrNotFound), errors.Is(err, storage.ErrConflict):
			// Someone else finished or changed it; what we wrote stands.
		default:
			return nil, false, interpretDeleteError(err, s.GroupResource(), name)
		}
	}
	return s.setTypeMeta(out), created, nil
}

// updateFrom computes and checks the new state of an existing object. On
// success the caller must call the returned FinishFunc with whether the
// object was stored; on error it is a no-op.
func (s *Store) updateFrom(ctx context.Context, current runtime.Object, ns, name string,
	newObj UpdatedObjectFunc, validateUpdate ValidateObjectFunc, dryRun bool) (_ runtime.Object, _ FinishFunc, err error) {
	old := current.DeepCopyObject()
	obj, err := newObj(ctx, current)
	if err != nil {
		return nil, finishNothing, err
	}
	if err := s.checkIdentity(obj, ns, name); err != nil {
		return nil, finishNothing, err
	}
	meta, oldMeta := metav1.MustAccessor(obj), metav1.MustAccessor(old)
	switch {
	case meta.ResourceVersion == "" && !s.Strategy.AllowUnconditionalUpdate():
		return nil, finishNothing, apierrors.NewInvalid(s.Resource.GVK(), name, apierrors.FieldErrors{
			apierrors.Invalid("metadata.resourceVersion", meta.ResourceVersion, "must be specified for an update")})
	case meta.ResourceVersion != "" && meta.ResourceVersion != oldMeta.ResourceVersion:
		return nil, finishNothing, apierrors.NewConflict(s.GroupResource(), name,
			errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	s.setTypeMeta(obj)
	// An unconditional update carries no resourceVersion; it is still an
	// update of the stored version.
	meta.ResourceVersion = oldMeta.ResourceVersion
	// The server owns these; a client that sends other values is ignored,
	// as in Kubernetes (uid and creationTimestamp are also validated
	// immutable, which catches a client that sends a wrong one).
	if meta.UID == "" {
		meta.UID = oldMeta.UID
	}
	if meta.CreationTimestamp.IsZero() {
		meta.CreationTimestamp = oldMeta.CreationTimestamp
	}
	meta.SelfLink = ""
	meta.DeletionTimestamp = oldMeta.DeletionTimestamp
	meta.DeletionGracePeriodSeconds = oldMeta.DeletionGracePeriodSeconds
	meta.Generation = oldMeta.Generation
	s.Strategy.PrepareForUpdate(ctx, obj, old)
	finish, err := s.beginUpdate(ctx, obj, old, dryRun)
	if err != nil {
		return nil, finishNothing, err
	}
	defer func() {
		if err != nil {
			finish(ctx, false)
		}
	}()
	if s.tracksGeneration() && specChanged(obj, old) {
		meta.Generation++
	}
	if errs := s.validateUpdate(ctx, obj, old); len(errs) > 0 {
		return nil, finishNothing, apierrors.NewInvalid(s.Resource.GVK(), name, errs)
	}
	if validateUpdate != nil {
		if err := validateUpdate(ctx, obj, old); err != nil {
			return nil, finishNothing, err
		}
	}
	return obj, finish, nil
}

// checkIdentity rejects a body whose name or namespace disagrees with the
// path, as Kubernetes does (400 for namespace, 400 for name).
func (s *Store) checkIdentity(obj runtime.Object, ns, name string) error {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	if meta.Name == "" {
		meta.Name = name
	}
	if meta.Name != name {
		return apierrors.NewBadRequest("the name of the object (" + meta.Name + ") does not match the name on the URL (" + name + ")")
	}
	if !s.Resource.Namespaced {
		meta.Namespace = ""
		return nil
	}
	if meta.Namespace == "" {
		meta.Namespace = ns
	}
	if meta.Namespace != ns {
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// readyToDelete reports an object whose deletion was waiting only for
// finalizers that are now all gone: metadata finalizers, and whatever the
// kind itself waits for (a namespace's spec finalizers).
func (s *Store) readyToDelete(ctx context.Context, obj runtime.Object) bool {
	meta := metav1.MustAccessor(obj)
	if meta.DeletionTimestamp == nil || len(meta.Finalizers) > 0 ||
		meta.DeletionGracePeriodSeconds != nil && *meta.DeletionGracePeriodSeconds > 0 {
		return false
	}
	if fs, ok := s.Strategy.(FinalizingDeleteStrategy); ok && fs.PrepareForDelete(ctx, obj.DeepCopyObject()) {
		return false
	}
	return true
}

// specChanged reports whether anything but metadata and status differs:
// what bumps metadata.generation. Comparing the JSON forms covers every
// kind without per-kind code.
func specChanged(obj, old runtime.Object) bool {
	// Most updates (status writes, label and finalizer edits) leave the
	// spec as it was, and equal Go values have equal JSON forms: settle
	// those without encoding anything. Values that differ may still encode
	// alike (a nil and an empty omitempty slice), so only JSON decides a
	// change.
	if desiredStateEqual(obj, old) {
		return false
	}
	return !reflect.DeepEqual(desiredState(obj), desiredState(old))
}

func desiredState(obj runtime.Object) map[string]any {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil
	}
	delete(m, "metadata")
	delete(m, "status")
	delete(m, "kind")
	delete(m, "apiVersion")
	return m
}

// desiredStateEqual reports whether obj and old hold deeply equal values
// in every top-level field that desiredState keeps. false means "compare
// the JSON forms", not "different".
func desiredStateEqual(obj, old runtime.Object) bool {
	v, ov := reflect.ValueOf(obj), reflect.ValueOf(old)
	if v.Type() != ov.Type() || v.Kind() != reflect.Pointer || v.IsNil() || ov.IsNil() {
		return false
	}
	v, ov = v.Elem(), ov.Elem()
	if v.Kind() != reflect.Struct {
		return false
	}
	for _, i := range desiredStateFields(v.Type()) {
		if !reflect.DeepEqual(v.Field(i).Interface(), ov.Field(i).Interface()) {
			return false
		}
	}
	return true
}

// desiredFieldCache maps a struct type to its desiredStateFields: types are
// fixed, and this runs on every update.
var desiredFieldCache sync.Map // reflect.Type -> []int

var typeMetaType = reflect.TypeFor[metav1.TypeMeta]()

// desiredStateFields returns the indexes of the fields of struct t that
// desiredState keeps: all but the embedded TypeMeta (kind, apiVersion) and
// the fields encoded as metadata and status. Unexported fields are kept:
// comparing more than the JSON form only sends more updates to the JSON
// comparison.
func desiredStateFields(t reflect.Type) []int {
	if cached, ok := desiredFieldCache.Load(t); ok {
		return cached.([]int)
	}
	var fields []int
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type == typeMetaType {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && !f.Anonymous && (name == "metadata" || name == "status") {
			continue
		}
		fields = append(fields, i)
	}
	desiredFieldCache.Store(t, fields)
	return fields
}

// UpdateUnchecked applies fn to the stored object ns/name with
// compare-and-swap retries but without the Strategy or admission: for
// subresources with their own rules, such as pods/binding, which sets the
// nodeName the pod strategy forbids changing.
func (s *Store) UpdateUnchecked(ctx context.Context, ns, name string, fn storage.UpdateFunc) (runtime.Object, error) {
	out, err := s.Storage.GuaranteedUpdate(ctx, s.Key(ns, name), storage.UpdateOptions{}, fn)
	if err != nil {
		return nil, interpretUpdateError(err, s.GroupResource(), name)
	}
	return s.setTypeMeta(out), nil
}
