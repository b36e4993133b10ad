package registry

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Strategy is what makes one resource different from another: which fields
// the server owns, what is valid, which fields can be selected.
//
// Upstream: k8s.io/apiserver/pkg/registry/rest (RESTCreateStrategy,
// RESTUpdateStrategy).
type Strategy interface {
	// PrepareForCreate resets fields a client may not set on create, such as
	// status. It runs before validation.
	PrepareForCreate(ctx context.Context, obj runtime.Object)
	// PrepareForUpdate copies from old what this kind of write may not
	// change: status on the main resource, spec on /status.
	PrepareForUpdate(ctx context.Context, obj, old runtime.Object)
	Validate(ctx context.Context, obj runtime.Object) apierrors.FieldErrors
	ValidateUpdate(ctx context.Context, obj, old runtime.Object) apierrors.FieldErrors
	// AllowCreateOnUpdate lets PUT create a missing object.
	AllowCreateOnUpdate() bool
	// AllowUnconditionalUpdate lets PUT without a resourceVersion overwrite
	// whatever is stored.
	AllowUnconditionalUpdate() bool
	// SelectableFields returns the field selector keys and values of obj.
	// metadata.name and metadata.namespace are added by the Store.
	SelectableFields(obj runtime.Object) fields.Set
}

// DefaultStrategy is the part of a Strategy most kinds share: the server
// owns no field to reset on create or update, PUT may not create a missing
// object, PUT without a resourceVersion overwrites (kubectl replace does),
// and only metadata.name and metadata.namespace are selectable. A kind's
// strategy embeds it and declares what differs; Validate and
// ValidateUpdate are not here, so no kind goes unvalidated by omission.
//
// Upstream: k8s.io/apiserver/pkg/registry/rest, where each kind's
// strategy writes these methods out.
type DefaultStrategy struct{}

// PrepareForCreate implements Strategy: nothing to reset.
func (DefaultStrategy) PrepareForCreate(context.Context, runtime.Object) {}

// PrepareForUpdate implements Strategy: nothing to keep from old.
func (DefaultStrategy) PrepareForUpdate(context.Context, runtime.Object, runtime.Object) {}

// AllowCreateOnUpdate implements Strategy: PUT of a missing object is 404.
func (DefaultStrategy) AllowCreateOnUpdate() bool { return false }

// AllowUnconditionalUpdate implements Strategy: PUT without a
// resourceVersion overwrites what is stored.
func (DefaultStrategy) AllowUnconditionalUpdate() bool { return true }

// SelectableFields implements Strategy: only the metadata fields, which
// the Store adds.
func (DefaultStrategy) SelectableFields(runtime.Object) fields.Set { return nil }

// GenerationStrategy is an optional Strategy capability, checked in
// Store.Create and Store.Update: kinds whose metadata.generation counts
// the changes to their desired state, for a controller to report back as
// status.observedGeneration (pods, Deployments, ReplicaSets, Jobs, CRDs,
// custom resources, webhook configurations). For them the Store sets
// generation to 1 on create and adds one on every update that changes
// anything but metadata and status; a strategy's PrepareForUpdate may add
// one for more (a Deployment's annotations). Every other kind has no
// generation: it stays 0 and is not shown, however the object is written
// (Events, ConfigMaps, Secrets, Services, Nodes, ...). A delete that marks
// an object adds one to a generation that is not 0.
//
// Upstream has no such switch: each kind's strategy sets generation in its
// PrepareForCreate and PrepareForUpdate, and most kinds' do not.
type GenerationStrategy interface {
	// TracksGeneration reports whether the kind keeps a generation.
	TracksGeneration() bool
}

// tracksGeneration reports whether the Store keeps metadata.generation for
// its kind (see GenerationStrategy).
func (s *Store) tracksGeneration() bool {
	g, ok := s.Strategy.(GenerationStrategy)
	return ok && g.TracksGeneration()
}

// GracefulDeleteStrategy is an optional Strategy capability, checked in
// Store.Delete: kinds whose deletion waits for someone (the kubelet) to
// confirm, such as a pod bound to a node.
type GracefulDeleteStrategy interface {
	// CheckGracefulDelete reports whether obj must be deleted gracefully and
	// may set opts.GracePeriodSeconds to the period to use.
	CheckGracefulDelete(ctx context.Context, obj runtime.Object, opts *metav1.DeleteOptions) bool
}

// FinalizingDeleteStrategy is an optional Strategy capability, checked in
// Store.Delete: kinds that enter a terminating state on delete instead of
// going away (a namespace waits for its contents to be deleted).
type FinalizingDeleteStrategy interface {
	// PrepareForDelete marks obj as terminating and returns whether the
	// object must wait (be updated instead of deleted).
	PrepareForDelete(ctx context.Context, obj runtime.Object) (wait bool)
}

// DecodeNormalizingStrategy is an optional Strategy capability, checked
// by the handlers right after they decode a request body (before
// admission): kinds whose shape a schema gives at run time, custom
// resources, drop the fields the schema does not know and fill in its
// defaults, as kube-apiserver's decoder for them does. It returns the
// paths of the dropped fields, which ?fieldValidation reports as it
// reports the unknown fields of a built-in kind, or an error for a body
// that cannot be shaped (the handlers answer 400, as for a body that
// does not decode).
type DecodeNormalizingStrategy interface {
	NormalizeDecoded(obj runtime.Object) (pruned []string, err error)
}

// ValidateObjectFunc is validating admission as the Store calls it: after
// the Strategy's validation, before storage. For updates, old is the stored
// object.
type ValidateObjectFunc func(ctx context.Context, obj, old runtime.Object) error

// UpdatedObjectFunc computes the object a PUT or PATCH wants from the
// stored one (nil when there is none and create-on-update applies). It runs
// inside the storage retry loop, so it may run more than once, and it
// includes mutating admission.
type UpdatedObjectFunc func(ctx context.Context, old runtime.Object) (runtime.Object, error)

// Attrs returns the labels and selectable fields of obj: what label and
// field selectors match against, for storage and the watch cache alike.
func (s *Store) Attrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, nil, err
	}
	f := s.Strategy.SelectableFields(obj)
	if f == nil {
		f = fields.Set{}
	}
	f["metadata.name"] = meta.Name
	if s.Resource.Namespaced {
		f["metadata.namespace"] = meta.Namespace
	}
	return labels.Set(meta.Labels), f, nil
}
