package core

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// EndpointsStrategy is the rules of the endpoints resource: a plain object
// the endpoints controller writes.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/endpoint (endpointsStrategy).
type EndpointsStrategy struct{ registry.DefaultStrategy }

// Validate implements registry.Strategy.
func (EndpointsStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateEndpoints(obj.(*corev1.Endpoints))
}

// ValidateUpdate implements registry.Strategy.
func (EndpointsStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateEndpointsUpdate(obj.(*corev1.Endpoints), old.(*corev1.Endpoints))
}

// AllowCreateOnUpdate implements registry.Strategy: PUT may create
// Endpoints, as upstream allows.
func (EndpointsStrategy) AllowCreateOnUpdate() bool { return true }
