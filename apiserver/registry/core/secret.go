package core

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// SecretStrategy is the rules of the secrets resource: stringData is
// merged into data and never stored, and the type may not change.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/secret (strategy).
type SecretStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: stringData is merged into
// data. Defaulting already does so; a server whose admission chain has no
// defaulting must not store it either.
func (SecretStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	corev1.MergeStringData(obj.(*corev1.Secret))
}

// PrepareForUpdate implements registry.Strategy: as PrepareForCreate.
func (SecretStrategy) PrepareForUpdate(_ context.Context, obj, _ runtime.Object) {
	corev1.MergeStringData(obj.(*corev1.Secret))
}

// Validate implements registry.Strategy.
func (SecretStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateSecret(obj.(*corev1.Secret))
}

// ValidateUpdate implements registry.Strategy.
func (SecretStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateSecretUpdate(obj.(*corev1.Secret), old.(*corev1.Secret))
}

// SelectableFields implements registry.Strategy with type, as upstream.
func (SecretStrategy) SelectableFields(obj runtime.Object) fields.Set {
	return fields.Set{"type": string(obj.(*corev1.Secret).Type)}
}

// SecretTable prints secrets as `kubectl get secrets` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printSecret).
var SecretTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Type", "string", "The type of the secret", 0),
		column("Data", "string", "The number of data items in the secret", 0),
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		s := obj.(*corev1.Secret)
		return []any{s.Name, string(s.Type), int64(len(s.Data)), printers.Age(obj, now)}
	},
}
