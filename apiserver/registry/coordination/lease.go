// Package coordination holds the registry strategy of coordination.k8s.io
// Leases: kubelets' heartbeats and leader election locks.
//
// Upstream: k8s.io/kubernetes/pkg/registry/coordination/lease.
package coordination

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// LeaseStrategy is the rules of the leases resource: a plain spec-only
// object, written often (every kubelet renews its lease every 10s).
type LeaseStrategy struct{ registry.DefaultStrategy }

// Validate implements registry.Strategy.
func (LeaseStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateLease(obj.(*coordinationv1.Lease))
}

// ValidateUpdate implements registry.Strategy.
func (LeaseStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateLeaseUpdate(obj.(*coordinationv1.Lease), old.(*coordinationv1.Lease))
}

// LeaseTable prints leases as `kubectl get leases` does.
var LeaseTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Holder", Type: "string", Description: "The holder of the lease."},
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		lease := obj.(*coordinationv1.Lease)
		holder := ""
		if lease.Spec.HolderIdentity != nil {
			holder = *lease.Spec.HolderIdentity
		}
		return []any{lease.Name, holder, printers.Age(obj, now)}
	},
}
