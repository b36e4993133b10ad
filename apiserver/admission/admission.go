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

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/request"
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
// stopping at the first error.
func (c Chain) Admit(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if m, ok := p.(MutationInterface); ok && p.Handles(a.Operation) {
			if err := m.Admit(ctx, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// Validate runs every validating plugin that handles the operation, in
// order, stopping at the first error.
func (c Chain) Validate(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if v, ok := p.(ValidationInterface); ok && p.Handles(a.Operation) {
			if err := v.Validate(ctx, a); err != nil {
				return err
			}
		}
	}
	return nil
}
