package admissionregistration

import (
	"context"
	"time"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// MutatingWebhookConfigurationStrategy is the rules of the
// mutatingwebhookconfigurations resource: a spec-only, cluster-scoped
// object, defaulted on every write. Defaulting happens here rather than in
// admission because webhooks never see these objects and a server may run
// without the Defaulting plugin; the store bumps the generation when the
// webhooks change.
//
// Upstream: k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration (strategy).
type MutatingWebhookConfigurationStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy.
func (MutatingWebhookConfigurationStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	admissionregistrationv1.SetDefaults(obj)
}

// PrepareForUpdate implements registry.Strategy.
func (MutatingWebhookConfigurationStrategy) PrepareForUpdate(_ context.Context, obj, _ runtime.Object) {
	admissionregistrationv1.SetDefaults(obj)
}

// Validate implements registry.Strategy.
func (MutatingWebhookConfigurationStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateMutatingWebhookConfiguration(obj.(*admissionregistrationv1.MutatingWebhookConfiguration))
}

// ValidateUpdate implements registry.Strategy.
func (MutatingWebhookConfigurationStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateMutatingWebhookConfigurationUpdate(
		obj.(*admissionregistrationv1.MutatingWebhookConfiguration), old.(*admissionregistrationv1.MutatingWebhookConfiguration))
}

// AllowUnconditionalUpdate implements registry.Strategy.
func (MutatingWebhookConfigurationStrategy) AllowUnconditionalUpdate() bool { return false }

// TracksGeneration implements registry.GenerationStrategy: a change of
// webhooks bumps it.
func (MutatingWebhookConfigurationStrategy) TracksGeneration() bool { return true }

// ValidatingWebhookConfigurationStrategy is the rules of the
// validatingwebhookconfigurations resource, those of
// MutatingWebhookConfigurationStrategy.
//
// Upstream: k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration (strategy).
type ValidatingWebhookConfigurationStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy.
func (ValidatingWebhookConfigurationStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	admissionregistrationv1.SetDefaults(obj)
}

// PrepareForUpdate implements registry.Strategy.
func (ValidatingWebhookConfigurationStrategy) PrepareForUpdate(_ context.Context, obj, _ runtime.Object) {
	admissionregistrationv1.SetDefaults(obj)
}

// Validate implements registry.Strategy.
func (ValidatingWebhookConfigurationStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateValidatingWebhookConfiguration(obj.(*admissionregistrationv1.ValidatingWebhookConfiguration))
}

// ValidateUpdate implements registry.Strategy.
func (ValidatingWebhookConfigurationStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateValidatingWebhookConfigurationUpdate(
		obj.(*admissionregistrationv1.ValidatingWebhookConfiguration), old.(*admissionregistrationv1.ValidatingWebhookConfiguration))
}

// AllowUnconditionalUpdate implements registry.Strategy.
func (ValidatingWebhookConfigurationStrategy) AllowUnconditionalUpdate() bool { return false }

// TracksGeneration implements registry.GenerationStrategy: a change of
// webhooks bumps it.
func (ValidatingWebhookConfigurationStrategy) TracksGeneration() bool { return true }

// webhooksColumn is upstream's column, an integer: the number of webhooks.
var webhooksColumn = metav1.TableColumnDefinition{Name: "Webhooks", Type: "integer",
	Description: "Webhooks indicates the number of webhooks registered in this configuration"}

// MutatingWebhookConfigurationTable prints configurations as `kubectl get
// mutatingwebhookconfigurations` does: NAME, WEBHOOKS, AGE.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printMutatingWebhook).
var MutatingWebhookConfigurationTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{printers.NameColumn, webhooksColumn, printers.AgeColumn},
	Cells: func(obj runtime.Object, now time.Time) []any {
		c := obj.(*admissionregistrationv1.MutatingWebhookConfiguration)
		return []any{c.Name, int64(len(c.Webhooks)), printers.Age(obj, now)}
	},
}

// ValidatingWebhookConfigurationTable prints configurations as `kubectl get
// validatingwebhookconfigurations` does: NAME, WEBHOOKS, AGE.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printValidatingWebhook).
var ValidatingWebhookConfigurationTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{printers.NameColumn, webhooksColumn, printers.AgeColumn},
	Cells: func(obj runtime.Object, now time.Time) []any {
		c := obj.(*admissionregistrationv1.ValidatingWebhookConfiguration)
		return []any{c.Name, int64(len(c.Webhooks)), printers.Age(obj, now)}
	},
}
