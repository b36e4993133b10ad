// Package admission runs the admission plugins of the request path: after
// authorization, mutating plugins may change the object (Admit); after
// schema validation, validating plugins may only reject it (Validate).
// Authorization has decided that the user may make the request; admission
// decides whether the request itself fits the rules of the cluster (no new
// objects in a terminating namespace, defaults filled in, what webhooks
// say): authn & authz -> mutating admission -> object schema validation
// -> validating admission -> etcd.
//
// Upstream: k8s.io/apiserver/pkg/admission.
package admission

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/tracing"
)

// Operation is what a request does to an object.
type Operation string

// The operations admission sees.
const (
	Create  Operation = "CREATE"
	Update  Operation = "UPDATE"
	Delete  Operation = "DELETE"
	Connect Operation = "CONNECT"
)

// Attributes describe the request being admitted. Object is the incoming
// object (nil for Delete), OldObject the stored one (nil for Create).
// Mutating plugins may modify Object in place.
type Attributes struct {
	Operation   Operation
	Resource    runtime.GroupVersionResource
	Subresource string
	Kind        runtime.GroupVersionKind
	Namespace   string
	Name        string
	Object      runtime.Object
	OldObject   runtime.Object
	User        *request.User
	DryRun      bool
}

// Plugin is one admission controller. A plugin implements
// MutationInterface, ValidationInterface, or both.
type Plugin interface {
	// Name is the plugin's name as --enable-admission-plugins spells it.
	Name() string
	// Handles reports whether the plugin cares about op at all.
	Handles(op Operation) bool
}

// MutationInterface is a plugin that may change the object. Its error
// rejects the request; return a StatusError to choose the code.
type MutationInterface interface {
	Plugin
	Admit(ctx context.Context, a *Attributes) error
}

// ValidationInterface is a plugin that may only reject.
type ValidationInterface interface {
	Plugin
	Validate(ctx context.Context, a *Attributes) error
}

// Chain runs plugins in order. The zero Chain admits everything.
type Chain []Plugin

// Admit runs every mutating plugin that handles the operation, in order,
// stopping at the first error. In a traced request each plugin is an
// admission.mutating span.
func (c Chain) Admit(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if m, ok := p.(MutationInterface); ok && p.Handles(a.Operation) {
			if err := traced(ctx, tracing.HopAdmissionMutating, p, a, m.Admit); err != nil {
				return err
			}
		}
	}
	return nil
}

// Validate runs every validating plugin that handles the operation, in
// order, stopping at the first error. In a traced request each plugin is
// an admission.validating span.
func (c Chain) Validate(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if v, ok := p.(ValidationInterface); ok && p.Handles(a.Operation) {
			if err := traced(ctx, tracing.HopAdmissionValidating, p, a, v.Validate); err != nil {
				return err
			}
		}
	}
	return nil
}

// traced calls fn as plugin p's span named hop, when ctx is traced. The
// tracer is the request span's provider's, so admission needs no tracing
// of its own.
func traced(ctx context.Context, hop string, p Plugin, a *Attributes, fn func(context.Context, *Attributes) error) error {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return fn(ctx, a)
	}
	ctx, span := tracing.TracerFrom(ctx, "apiserver").Start(ctx, hop,
		trace.WithAttributes(tracing.KeyPlugin.String(p.Name()), attribute.String("operation", string(a.Operation))))
	defer span.End()
	err := fn(ctx, a)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	return err
}
