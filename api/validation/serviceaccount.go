package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ValidateServiceAccount checks a ServiceAccount: a namespaced object
// named by a DNS subdomain.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateServiceAccount).
func ValidateServiceAccount(sa *corev1.ServiceAccount) apierrors.FieldErrors {
	return ValidateObjectMeta(&sa.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
}

// ValidateServiceAccountUpdate checks an update of a ServiceAccount: the
// metadata update rules and the new ServiceAccount.
func ValidateServiceAccountUpdate(sa, old *corev1.ServiceAccount) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&sa.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, ValidateServiceAccount(sa)...)
}
