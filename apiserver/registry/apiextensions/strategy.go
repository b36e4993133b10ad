package apiextensions

import (
	"context"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/apiextensions/v1/validation"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/clock"
)

// Strategy is the rules of the customresourcedefinitions resource.
type Strategy struct {
	registry.DefaultStrategy
	// Clock stamps the Terminating condition a delete sets.
	Clock clock.Clock
}

var (
	_ registry.Strategy                 = Strategy{}
	_ registry.FinalizingDeleteStrategy = Strategy{}
	_ registry.Strategy                 = StatusStrategy{}
)

// PrepareForCreate implements registry.Strategy: status is the server's,
// and starts with the storage version as the one stored version.
func (Strategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	crd := obj.(*apiextensionsv1.CustomResourceDefinition)
	crd.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
	addStoredVersion(crd)
}

// PrepareForUpdate implements registry.Strategy: status stays as stored,
// and a new storage version joins the stored versions.
func (Strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	crd := obj.(*apiextensionsv1.CustomResourceDefinition)
	crd.Status = runtime.DeepCopy(old.(*apiextensionsv1.CustomResourceDefinition).Status)
	addStoredVersion(crd)
}

// addStoredVersion records the storage version in status.storedVersions:
// objects may be in etcd at every version listed there.
func addStoredVersion(crd *apiextensionsv1.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if v.Storage && !slices.Contains(crd.Status.StoredVersions, v.Name) {
			crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
		}
	}
}

// Validate implements registry.Strategy.
func (Strategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateCustomResourceDefinition(obj.(*apiextensionsv1.CustomResourceDefinition))
}

// ValidateUpdate implements registry.Strategy.
func (Strategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateCustomResourceDefinitionUpdate(obj.(*apiextensionsv1.CustomResourceDefinition), old.(*apiextensionsv1.CustomResourceDefinition))
}

// AllowUnconditionalUpdate implements registry.Strategy.
func (Strategy) AllowUnconditionalUpdate() bool { return false }

// TracksGeneration implements registry.GenerationStrategy: a CRD's
// conditions carry observedGeneration.
func (Strategy) TracksGeneration() bool { return true }

// PrepareForDelete implements registry.FinalizingDeleteStrategy: a CRD
// is not removed while objects of its resource exist. A delete adds the
// customresourcecleanup finalizer and the Terminating condition; the API
// server's finalizer deletes every object, then removes the finalizer.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition (REST.Delete).
func (s Strategy) PrepareForDelete(_ context.Context, obj runtime.Object) bool {
	crd := obj.(*apiextensionsv1.CustomResourceDefinition)
	if crd.DeletionTimestamp != nil {
		// Marked already: the finalizer decides, and may have removed
		// itself.
		return slices.Contains(crd.Finalizers, apiextensionsv1.CustomResourceCleanupFinalizer)
	}
	if !slices.Contains(crd.Finalizers, apiextensionsv1.CustomResourceCleanupFinalizer) {
		crd.Finalizers = append(crd.Finalizers, apiextensionsv1.CustomResourceCleanupFinalizer)
	}
	now := clock.Real.Now()
	if s.Clock != nil {
		now = s.Clock.Now()
	}
	apiextensionsv1.SetCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue,
		Reason: "InstanceDeletionPending", Message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
	}, metav1.NewTime(now))
	return true
}

// StatusStrategy is the rules of customresourcedefinitions/status: only
// status changes, metadata included.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition (statusStrategy).
type StatusStrategy struct{ Strategy }

// PrepareForUpdate implements registry.Strategy.
func (StatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	crd, o := obj.(*apiextensionsv1.CustomResourceDefinition), old.(*apiextensionsv1.CustomResourceDefinition)
	crd.Spec = runtime.DeepCopy(o.Spec)
	crd.Labels, crd.Annotations = o.Labels, o.Annotations
	crd.Finalizers, crd.OwnerReferences = o.Finalizers, o.OwnerReferences
}

// ValidateUpdate implements registry.Strategy: the status alone.
func (StatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateUpdateCustomResourceDefinitionStatus(obj.(*apiextensionsv1.CustomResourceDefinition), old.(*apiextensionsv1.CustomResourceDefinition))
}
