package core

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// EventStrategy is the rules of the core/v1 events resource. Event
// recorders PUT to bump counts, so update may create.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/event.
type EventStrategy struct{ registry.DefaultStrategy }

// Validate implements registry.Strategy.
func (EventStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateEvent(obj.(*corev1.Event))
}

// ValidateUpdate implements registry.Strategy.
func (EventStrategy) ValidateUpdate(_ context.Context, obj, _ runtime.Object) apierrors.FieldErrors {
	return validation.ValidateEvent(obj.(*corev1.Event))
}

// AllowCreateOnUpdate implements registry.Strategy.
func (EventStrategy) AllowCreateOnUpdate() bool { return true }

// SelectableFields implements registry.Strategy with the fields
// `kubectl describe` selects events by.
func (EventStrategy) SelectableFields(obj runtime.Object) fields.Set {
	e := obj.(*corev1.Event)
	source := e.Source.Component
	if source == "" {
		source = e.ReportingController
	}
	return fields.Set{
		"involvedObject.kind":            e.InvolvedObject.Kind,
		"involvedObject.namespace":       e.InvolvedObject.Namespace,
		"involvedObject.name":            e.InvolvedObject.Name,
		"involvedObject.uid":             e.InvolvedObject.UID,
		"involvedObject.apiVersion":      e.InvolvedObject.APIVersion,
		"involvedObject.resourceVersion": e.InvolvedObject.ResourceVersion,
		"involvedObject.fieldPath":       e.InvolvedObject.FieldPath,
		"reason":                         e.Reason,
		"reportingComponent":             e.ReportingController,
		"source":                         source,
		"type":                           e.Type,
	}
}
