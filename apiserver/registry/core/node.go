package core

import (
	"context"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// NodeStrategy is the rules of the nodes resource. A kubelet registers its
// node with a status, so create keeps it.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/node (nodeStrategy).
type NodeStrategy struct{ registry.DefaultStrategy }

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (NodeStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.Node).Status = old.(*corev1.Node).Status
}

// Validate implements registry.Strategy.
func (NodeStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateNode(obj.(*corev1.Node))
}

// ValidateUpdate implements registry.Strategy.
func (NodeStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateNodeUpdate(obj.(*corev1.Node), old.(*corev1.Node))
}

// SelectableFields implements registry.Strategy.
func (NodeStrategy) SelectableFields(obj runtime.Object) fields.Set {
	return fields.Set{"spec.unschedulable": strconv.FormatBool(obj.(*corev1.Node).Spec.Unschedulable)}
}

// NodeStatusStrategy is the rules of nodes/status: only status changes.
type NodeStatusStrategy struct{ NodeStrategy }

// PrepareForUpdate implements registry.Strategy.
func (NodeStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.Node).Spec = old.(*corev1.Node).Spec
}
