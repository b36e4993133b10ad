package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
)

// ValidateScale checks the Scale a client writes to a scale subresource:
// its metadata names a namespaced object, and spec.replicas is not
// negative.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/validation (ValidateScale).
func ValidateScale(scale *autoscalingv1.Scale) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&scale.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	if scale.Spec.Replicas < 0 {
		errs = append(errs, apierrors.Invalid("spec.replicas", scale.Spec.Replicas, isNegativeErrorMsg))
	}
	return errs
}
