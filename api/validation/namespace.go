package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ValidateNamespace checks a namespace being created: a cluster-scoped
// object named by a DNS label, with valid spec.finalizers.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateNamespace).
func ValidateNamespace(ns *corev1.Namespace) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&ns.ObjectMeta, false, NameIsDNSLabel, "metadata")
	for _, f := range ns.Spec.Finalizers {
		errs = append(errs, validateFinalizerName(string(f), path("spec").child("finalizers"))...)
	}
	return errs
}

// ValidateNamespaceUpdate checks an update of a namespace: the metadata
// update rules. Its spec.finalizers change only through the finalize
// subresource; the API server keeps the old ones on update.
func ValidateNamespaceUpdate(newNS, oldNS *corev1.Namespace) apierrors.FieldErrors {
	return ValidateObjectMetaUpdate(&newNS.ObjectMeta, &oldNS.ObjectMeta, "metadata")
}

// ValidateNamespaceStatusUpdate checks an update of a namespace's status:
// the phase is Active while there is no deletionTimestamp and Terminating
// once there is.
func ValidateNamespaceStatusUpdate(newNS, oldNS *corev1.Namespace) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&newNS.ObjectMeta, &oldNS.ObjectMeta, "metadata")
	phasePath := path("status").child("phase").String()
	if newNS.DeletionTimestamp == nil {
		if newNS.Status.Phase != corev1.NamespaceActive {
			errs = append(errs, apierrors.Invalid(phasePath, newNS.Status.Phase, "may only be 'Active' if `deletionTimestamp` is empty"))
		}
	} else if newNS.Status.Phase != corev1.NamespaceTerminating {
		errs = append(errs, apierrors.Invalid(phasePath, newNS.Status.Phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"))
	}
	return errs
}

// ValidateNamespaceFinalizeUpdate checks an update through the finalize
// subresource, the only way spec.finalizers change.
func ValidateNamespaceFinalizeUpdate(newNS, oldNS *corev1.Namespace) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&newNS.ObjectMeta, &oldNS.ObjectMeta, "metadata")
	for i, f := range newNS.Spec.Finalizers {
		errs = append(errs, validateFinalizerName(string(f), path("spec").child("finalizers").index(i))...)
	}
	return errs
}
