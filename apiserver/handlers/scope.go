package handlers

import (
	"context"
	"log/slog"

	metav1 "github.com/minicp/minicp/api/meta/v1"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/fieldmanager"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// Scope is everything a handler needs about the resource it serves.
type Scope struct {
	Store *registry.Store
	// Subresource is "" for the resource itself, or "status", "binding"...
	Subresource string
	// Scale, when set, makes Get, Update and Patch serve the resource's
	// scale subresource: they read and write autoscaling/v1 Scales through
	// it instead of the objects themselves.
	Scale     *registry.ScaleStore
	Admission admission.Chain
	// FieldManager maintains the managedFields of the objects written
	// through this scope and serves server-side apply. Nil for scopes
	// whose writes are not tracked.
	FieldManager *fieldmanager.Lazy
	Tables       TableConvertor
	Clock        clock.Clock
	Logger       *slog.Logger

	// creater is the NamedCreater a subresource POST is served by, set
	// per request: its Kind and AcceptedVersions say what the body may be.
	creater *registry.NamedCreater
}

// attributes builds admission attributes for a request on this scope.
func (s *Scope) attributes(ctx context.Context, op admission.Operation, ns, name string, obj, old runtime.Object, dryRun bool) *admission.Attributes {
	user, _ := request.UserFrom(ctx)
	return &admission.Attributes{
		Operation:   op,
		Resource:    s.Store.Resource.GVR,
		Subresource: s.Subresource,
		Kind:        s.bodyGVK(),
		Namespace:   ns,
		Name:        name,
		Object:      obj,
		OldObject:   old,
		User:        user,
		DryRun:      dryRun,
	}
}

// validating returns validating admission as a registry.ValidateObjectFunc.
func (s *Scope) validating(op admission.Operation, ns, name string, dryRun bool) registry.ValidateObjectFunc {
	return func(ctx context.Context, obj, old runtime.Object) error {
		n := name
		if m, err := metav1.Accessor(obj); err == nil && m.Name != "" {
			n = m.Name
		}
		return s.Admission.Validate(ctx, s.attributes(ctx, op, ns, n, obj, old, dryRun))
	}
}
