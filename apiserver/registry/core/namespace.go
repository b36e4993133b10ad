package core

import (
	"context"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// NamespaceStrategy is the rules of the namespaces resource. A namespace
// is born Active with the "kubernetes" finalizer; deleting it makes it
// Terminating until the namespace controller has deleted its contents and
// removed that finalizer through /finalize, as in Kubernetes.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/namespace.
type NamespaceStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy.
func (NamespaceStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	ns := obj.(*corev1.Namespace)
	ns.Status = corev1.NamespaceStatus{Phase: corev1.NamespaceActive}
	if !slices.Contains(ns.Spec.Finalizers, corev1.FinalizerKubernetes) {
		ns.Spec.Finalizers = append(ns.Spec.Finalizers, corev1.FinalizerKubernetes)
	}
}

// PrepareForUpdate implements registry.Strategy: finalizers change only
// through /finalize, status only through /status.
func (NamespaceStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	ns, oldNS := obj.(*corev1.Namespace), old.(*corev1.Namespace)
	ns.Spec.Finalizers = oldNS.Spec.Finalizers
	ns.Status = oldNS.Status
}

// Validate implements registry.Strategy.
func (NamespaceStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateNamespace(obj.(*corev1.Namespace))
}

// ValidateUpdate implements registry.Strategy.
func (NamespaceStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateNamespaceUpdate(obj.(*corev1.Namespace), old.(*corev1.Namespace))
}

// SelectableFields implements registry.Strategy.
func (NamespaceStrategy) SelectableFields(obj runtime.Object) fields.Set {
	return fields.Set{"status.phase": string(obj.(*corev1.Namespace).Status.Phase)}
}

// PrepareForDelete implements registry.FinalizingDeleteStrategy: a
// namespace with spec finalizers turns Terminating and waits.
func (NamespaceStrategy) PrepareForDelete(_ context.Context, obj runtime.Object) bool {
	ns := obj.(*corev1.Namespace)
	if len(ns.Spec.Finalizers) == 0 {
		return false
	}
	ns.Status.Phase = corev1.NamespaceTerminating
	return true
}

// NamespaceStatusStrategy is the rules of namespaces/status.
type NamespaceStatusStrategy struct{ NamespaceStrategy }

// PrepareForUpdate implements registry.Strategy: only status changes.
func (NamespaceStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.Namespace).Spec = old.(*corev1.Namespace).Spec
}

// NamespaceFinalizeStrategy is the rules of namespaces/finalize: only
// spec.finalizers changes.
type NamespaceFinalizeStrategy struct{ NamespaceStrategy }

// PrepareForUpdate implements registry.Strategy.
func (NamespaceFinalizeStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	ns, oldNS := obj.(*corev1.Namespace), old.(*corev1.Namespace)
	finalizers := ns.Spec.Finalizers
	*ns = *oldNS.DeepCopy()
	ns.Spec.Finalizers = finalizers
}
