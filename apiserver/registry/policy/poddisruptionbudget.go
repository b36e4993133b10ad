package policy

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// PodDisruptionBudgetStrategy is the rules of the poddisruptionbudgets
// resource: the spec is the client's, the status the disruption
// controller's. The generation counts spec changes, so an eviction can
// tell (status.observedGeneration) whether the status still describes
// the spec.
//
// Upstream: k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget
// (podDisruptionBudgetStrategy).
type PodDisruptionBudgetStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new budget has no
// status.
func (PodDisruptionBudgetStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*policyv1.PodDisruptionBudget).Status = policyv1.PodDisruptionBudgetStatus{}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (PodDisruptionBudgetStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*policyv1.PodDisruptionBudget).Status = old.(*policyv1.PodDisruptionBudget).Status
}

// Validate implements registry.Strategy.
func (PodDisruptionBudgetStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePodDisruptionBudget(obj.(*policyv1.PodDisruptionBudget))
}

// ValidateUpdate implements registry.Strategy: the spec may change, as
// upstream allows since Kubernetes 1.15.
func (PodDisruptionBudgetStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePodDisruptionBudgetUpdate(obj.(*policyv1.PodDisruptionBudget), old.(*policyv1.PodDisruptionBudget))
}

// TracksGeneration implements registry.GenerationStrategy: the disruption
// controller reports it as status.observedGeneration.
func (PodDisruptionBudgetStrategy) TracksGeneration() bool { return true }

// PodDisruptionBudgetStatusStrategy is the rules of
// poddisruptionbudgets/status: only status changes.
type PodDisruptionBudgetStatusStrategy struct {
	PodDisruptionBudgetStrategy
}

// PrepareForUpdate implements registry.Strategy.
func (PodDisruptionBudgetStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*policyv1.PodDisruptionBudget).Spec = old.(*policyv1.PodDisruptionBudget).Spec
}

// ValidateUpdate implements registry.Strategy.
func (PodDisruptionBudgetStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePodDisruptionBudgetStatusUpdate(obj.(*policyv1.PodDisruptionBudget), old.(*policyv1.PodDisruptionBudget))
}

// PodDisruptionBudgetTable prints budgets as `kubectl get pdb` does: NAME
// MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE, with N/A for the
// bound that is not set.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printPodDisruptionBudget).
var PodDisruptionBudgetTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Min Available", Type: "string", Description: "The minimum number of pods that must be available."},
		{Name: "Max Unavailable", Type: "string", Description: "The maximum number of pods that may be unavailable."},
		{Name: "Allowed Disruptions", Type: "integer", Description: "Calculated number of pods that may be disrupted at this time."},
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		pdb := obj.(*policyv1.PodDisruptionBudget)
		minAvailable, maxUnavailable := "N/A", "N/A"
		if v := pdb.Spec.MinAvailable; v != nil {
			minAvailable = v.String()
		}
		if v := pdb.Spec.MaxUnavailable; v != nil {
			maxUnavailable = v.String()
		}
		return []any{pdb.Name, minAvailable, maxUnavailable, int64(pdb.Status.DisruptionsAllowed), printers.Age(obj, now)}
	},
}
