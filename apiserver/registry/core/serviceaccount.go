package core

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// ServiceAccountStrategy is the rules of the serviceaccounts resource.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/serviceaccount (strategy).
type ServiceAccountStrategy struct{ registry.DefaultStrategy }

// Validate implements registry.Strategy.
func (ServiceAccountStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateServiceAccount(obj.(*corev1.ServiceAccount))
}

// ValidateUpdate implements registry.Strategy.
func (ServiceAccountStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateServiceAccountUpdate(obj.(*corev1.ServiceAccount), old.(*corev1.ServiceAccount))
}

// ServiceAccountTable prints service accounts as `kubectl get
// serviceaccounts` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printServiceAccount).
var ServiceAccountTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Secrets", "string", "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.", 0),
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		sa := obj.(*corev1.ServiceAccount)
		return []any{sa.Name, int64(len(sa.Secrets)), printers.Age(obj, now)}
	},
}
