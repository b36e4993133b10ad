package customresource

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// Schema is what the strategy needs of a version's structural schema.
// The API server backs it with the CRD's openAPIV3Schema.
type Schema interface {
	// Validate checks the whole object (apiVersion, kind, metadata and
	// content) and returns its errors with field paths from the root.
	Validate(ctx context.Context, obj map[string]any) apierrors.FieldErrors
	// ValidateUpdate is Validate for an update, with the stored object
	// for transition rules.
	ValidateUpdate(ctx context.Context, obj, old map[string]any) apierrors.FieldErrors
	// Normalize prunes the fields the schema does not know from the
	// content of an object a client sent, and applies the schema's
	// defaults, in place. It returns the pruned fields' paths, or an
	// error when an embedded object's metadata has the wrong shape.
	Normalize(content map[string]any) (pruned []string, err error)
}

// Strategy is the rules of one served version of a custom resource. It
// is immutable and safe for concurrent use.
type Strategy struct {
	registry.DefaultStrategy
	// Kind is the kind and version objects must say they are.
	Kind runtime.GroupVersionKind
	// Namespaced says whether objects live in namespaces.
	Namespaced bool
	// Schema validates objects; nil accepts any content.
	Schema Schema
	// StatusEnabled says the version has a status subresource: status is
	// then written only through it, and spec writes leave it alone.
	StatusEnabled bool
	// FieldPaths are the CRD's selectableFields, as JSON paths
	// (".spec.color"): field selectors may use them besides metadata.name
	// and metadata.namespace.
	FieldPaths []string
}

// PrepareForCreate implements registry.Strategy: with a status
// subresource, a create cannot set status.
func (s Strategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	if s.StatusEnabled {
		delete(obj.(*unstructured.Unstructured).Content, "status")
	}
}

// PrepareForUpdate implements registry.Strategy: with a status
// subresource, an update keeps the stored status.
func (s Strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	if !s.StatusEnabled {
		return
	}
	u, o := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	status, ok := o.Content["status"]
	if !ok {
		delete(u.Content, "status")
		return
	}
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	u.Content["status"] = runtime.DeepCopy(status)
}

// NormalizeDecoded implements registry.DecodeNormalizingStrategy: the
// schema prunes and defaults what a client sent.
func (s Strategy) NormalizeDecoded(obj runtime.Object) ([]string, error) {
	if s.Schema == nil {
		return nil, nil
	}
	u := obj.(*unstructured.Unstructured)
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	return s.Schema.Normalize(u.Content)
}

// Validate implements registry.Strategy.
func (s Strategy) Validate(ctx context.Context, obj runtime.Object) apierrors.FieldErrors {
	u := obj.(*unstructured.Unstructured)
	errs := s.validateKind(u)
	errs = append(errs, validation.ValidateObjectMeta(&u.ObjectMeta, s.Namespaced, validation.NameIsDNSSubdomain, "metadata")...)
	if s.Schema != nil {
		errs = append(errs, s.Schema.Validate(ctx, Content(u))...)
	}
	return errs
}

// ValidateUpdate implements registry.Strategy.
func (s Strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	u, o := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	errs := s.validateKind(u)
	errs = append(errs, validation.ValidateObjectMetaUpdate(&u.ObjectMeta, &o.ObjectMeta, "metadata")...)
	if s.Schema != nil {
		errs = append(errs, s.Schema.ValidateUpdate(ctx, Content(u), Content(o))...)
	}
	return errs
}

// validateKind checks the object says it is this version's kind: the
// handlers already refused a body that names another, so this catches
// only a strategy used with the wrong resource.
func (s Strategy) validateKind(u *unstructured.Unstructured) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if u.Kind != s.Kind.Kind {
		errs = append(errs, apierrors.Invalid("kind", u.Kind, fmt.Sprintf("must be %s", s.Kind.Kind)))
	}
	if u.APIVersion != s.Kind.GroupVersion().String() {
		errs = append(errs, apierrors.Invalid("apiVersion", u.APIVersion, fmt.Sprintf("must be %s", s.Kind.GroupVersion())))
	}
	return errs
}

// AllowUnconditionalUpdate implements registry.Strategy.
func (Strategy) AllowUnconditionalUpdate() bool { return false }

// TracksGeneration implements registry.GenerationStrategy: operators report
// it as status.observedGeneration.
func (Strategy) TracksGeneration() bool { return true }

// SelectableFields implements registry.Strategy: the CRD's selectable
// fields, each as the string form of its value ("" when absent), as
// upstream's field selectors compare them.
func (s Strategy) SelectableFields(obj runtime.Object) fields.Set {
	if len(s.FieldPaths) == 0 {
		return nil
	}
	u := obj.(*unstructured.Unstructured)
	set := make(fields.Set, len(s.FieldPaths))
	for _, p := range s.FieldPaths {
		path := splitPath(p)
		v, ok := unstructured.NestedField(u.Content, path...)
		key := p[1:] // ".spec.color" is selected as "spec.color"
		if !ok || v == nil {
			set[key] = ""
			continue
		}
		set[key] = fmt.Sprint(v)
	}
	return set
}

// StatusStrategy is the rules of a custom resource's status subresource:
// only status changes.
type StatusStrategy struct{ Strategy }

// PrepareForUpdate implements registry.Strategy: everything but status
// (and the managed fields, which track the status writer) comes from the
// stored object.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource
// (statusStrategy.PrepareForUpdate).
func (StatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	u, o := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	status, hasStatus := u.Content["status"]
	managed := u.ManagedFields
	*u = *o.DeepCopy()
	u.ManagedFields = managed
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	if hasStatus {
		u.Content["status"] = status
	} else {
		delete(u.Content, "status")
	}
}

// ValidateUpdate implements registry.Strategy: the schema applies to the
// whole object, status included.
func (s StatusStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return s.Strategy.ValidateUpdate(ctx, obj, old)
}

// Content returns the whole object as decoded JSON: apiVersion, kind,
// metadata and every other top-level field, as a schema sees it. The
// top level is a new map; nested values are u's own.
func Content(u *unstructured.Unstructured) map[string]any {
	m := make(map[string]any, len(u.Content)+3)
	for k, v := range u.Content {
		m[k] = v
	}
	m["apiVersion"] = u.APIVersion
	m["kind"] = u.Kind
	m["metadata"] = metadataMap(u)
	return m
}

var _ registry.Strategy = Strategy{}
var _ registry.DecodeNormalizingStrategy = Strategy{}
var _ registry.GenerationStrategy = Strategy{}
var _ registry.Strategy = StatusStrategy{}
