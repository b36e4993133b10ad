// Package scheduling holds the rules of the scheduling.k8s.io resources:
// priorityclasses.
//
// Upstream: k8s.io/kubernetes/pkg/registry/scheduling.
package scheduling

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// PriorityClassStrategy is the rules of the priorityclasses resource: a
// preemption policy defaults to PreemptLowerPriority, and value and
// policy never change, as pods already carry them.
//
// Upstream: k8s.io/kubernetes/pkg/registry/scheduling/priorityclass (priorityClassStrategy).
type PriorityClassStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: the default preemption
// policy, as upstream's defaulting sets it.
func (PriorityClassStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	pc := obj.(*schedulingv1.PriorityClass)
	if pc.PreemptionPolicy == nil {
		policy := corev1.PreemptLowerPriority
		pc.PreemptionPolicy = &policy
	}
}

// PrepareForUpdate implements registry.Strategy: an update that leaves the
// policy out keeps the stored one (which validation then compares).
func (PriorityClassStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	pc := obj.(*schedulingv1.PriorityClass)
	if pc.PreemptionPolicy == nil {
		pc.PreemptionPolicy = old.(*schedulingv1.PriorityClass).PreemptionPolicy
	}
}

// Validate implements registry.Strategy.
func (PriorityClassStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePriorityClass(obj.(*schedulingv1.PriorityClass))
}

// ValidateUpdate implements registry.Strategy.
func (PriorityClassStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePriorityClassUpdate(obj.(*schedulingv1.PriorityClass), old.(*schedulingv1.PriorityClass))
}

// PriorityClassTable prints priority classes as `kubectl get
// priorityclasses` does: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printPriorityClass).
var PriorityClassTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Value", Type: "integer", Description: "The value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec."},
		{Name: "Global-Default", Type: "boolean", Description: "Whether this priority class should be considered as the default priority for pods that do not have any priority class."},
		printers.AgeColumn,
		{Name: "PreemptionPolicy", Type: "string", Description: "The Policy for preempting pods with lower priority."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		pc := obj.(*schedulingv1.PriorityClass)
		policy := ""
		if pc.PreemptionPolicy != nil {
			policy = string(*pc.PreemptionPolicy)
		}
		return []any{pc.Name, int64(pc.Value), pc.GlobalDefault, printers.Age(obj, now), policy}
	},
}
