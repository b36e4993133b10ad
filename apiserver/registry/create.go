package registry

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/google/uuid"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/wait"
)

// CreateOptions tunes Create.
type CreateOptions struct {
	// DryRun runs every step but the storage write.
	DryRun bool
}

// generateNameRetry bounds the tries when a generated name collides, one
// right after another with a new name. Five random characters from 27
// give 14 million names, so a collision is rare and several in a row mean
// something else is wrong.
var generateNameRetry = wait.Backoff{Steps: 9}

// Create sets the server-owned fields of obj, validates it, runs
// validating admission and stores it. obj must already be through mutating
// admission. It returns the stored object. Create takes ownership of obj.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (Store.Create).
func (s *Store) Create(ctx context.Context, obj runtime.Object, validate ValidateObjectFunc, opts CreateOptions) (runtime.Object, error) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	generated := meta.Name == "" && meta.GenerateName != ""
	var out runtime.Object
	err = wait.OnError(ctx, generateNameRetry, func(err error) bool {
		return generated && errors.Is(err, storage.ErrExists)
	}, func() (err error) {
		if generated {
			meta.Name = GenerateName(meta.GenerateName)
		}
		out, err = s.createOnce(ctx, obj, validate, opts)
		return err
	})
	if err != nil {
		return nil, interpretCreateError(err, s.GroupResource(), meta.Name)
	}
	return out, nil
}

func (s *Store) createOnce(ctx context.Context, obj runtime.Object, validate ValidateObjectFunc, opts CreateOptions) (runtime.Object, error) {
	finish, err := s.beforeCreate(ctx, obj, opts.DryRun)
	if err != nil {
		return nil, err
	}
	stored := false
	defer func() { finish(ctx, stored) }()
	if validate != nil {
		if err := validate(ctx, obj, nil); err != nil {
			return nil, err
		}
	}
	meta := metav1.MustAccessor(obj)
	if opts.DryRun {
		return obj, nil
	}
	out, err := s.Storage.Create(ctx, s.Key(meta.Namespace, meta.Name), obj)
	if err != nil {
		return nil, err
	}
	stored = true
	return s.setTypeMeta(out), nil
}

// beforeCreate sets what the server owns at creation, runs the strategy's
// BeginCreate hook and validates. On success the caller must call the
// returned FinishFunc with whether obj was stored; on error there is
// nothing to finish.
//
// Upstream: k8s.io/apiserver/pkg/registry/rest (BeforeCreate).
func (s *Store) beforeCreate(ctx context.Context, obj runtime.Object, dryRun bool) (FinishFunc, error) {
	meta := metav1.MustAccessor(obj)
	if !s.Resource.Namespaced {
		meta.Namespace = ""
	}
	s.setTypeMeta(obj)
	meta.UID = uuid.NewString()
	meta.CreationTimestamp = metav1.NewTime(s.Clock.Now())
	meta.ResourceVersion = ""
	meta.SelfLink = ""
	meta.Generation = 0
	if s.tracksGeneration() {
		meta.Generation = 1
	}
	meta.DeletionTimestamp = nil
	meta.DeletionGracePeriodSeconds = nil
	s.Strategy.PrepareForCreate(ctx, obj)
	finish, err := s.beginCreate(ctx, obj, dryRun)
	if err != nil {
		return nil, err
	}
	if errs := s.validateCreate(ctx, obj); len(errs) > 0 {
		finish(ctx, false)
		return nil, apierrors.NewInvalid(s.Resource.GVK(), meta.Name, errs)
	}
	return finish, nil
}

// nameAlphabet leaves out vowels and look-alikes so generated names never
// spell words or confuse readers, as Kubernetes does.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// GenerateName appends five random characters to base, truncating base so
// the result stays a valid 63-character name.
func GenerateName(base string) string {
	const maxNameLength, randomLength = 63, 5
	if len(base) > maxNameLength-randomLength {
		base = base[:maxNameLength-randomLength]
	}
	suffix := make([]byte, randomLength)
	for i := range suffix {
		suffix[i] = nameAlphabet[rand.IntN(len(nameAlphabet))]
	}
	return base + string(suffix)
}
