package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
)

// ValidateLease checks a Lease: a DNS-subdomain name in a namespace, a
// positive duration and non-negative transitions.
//
// Upstream: k8s.io/kubernetes/pkg/apis/coordination/validation (ValidateLease).
func ValidateLease(lease *coordinationv1.Lease) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&lease.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	if d := lease.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, apierrors.Invalid("spec.leaseDurationSeconds", *d, "must be greater than 0"))
	}
	if t := lease.Spec.LeaseTransitions; t != nil && *t < 0 {
		errs = append(errs, apierrors.Invalid("spec.leaseTransitions", *t, "must be greater than or equal to 0"))
	}
	return errs
}

// ValidateLeaseUpdate checks an update of a Lease.
func ValidateLeaseUpdate(lease, old *coordinationv1.Lease) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&lease.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, ValidateLease(lease)...)
}
