package validation

import (
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
)

// ValidatePriorityClass checks a PriorityClass: its name, that a
// "system-" name is one of the system's classes with its value, that a
// user's class stays at or below HighestUserDefinablePriority, and its
// preemption policy.
//
// Upstream: k8s.io/kubernetes/pkg/apis/scheduling/validation (ValidatePriorityClass).
func ValidatePriorityClass(pc *schedulingv1.PriorityClass) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&pc.ObjectMeta, false, NameIsDNSSubdomain, "metadata")
	if strings.HasPrefix(pc.Name, schedulingv1.SystemPriorityClassPrefix) {
		if err := knownSystemPriorityClass(pc); err != nil {
			errs = append(errs, apierrors.Forbidden("metadata.name", "priority class names with '"+
				schedulingv1.SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+err.Error()))
		}
	} else if pc.Value > schedulingv1.HighestUserDefinablePriority {
		errs = append(errs, apierrors.Forbidden("value",
			fmt.Sprintf("maximum allowed value of a user defined priority is %v", schedulingv1.HighestUserDefinablePriority)))
	}
	if p := pc.PreemptionPolicy; p != nil && *p != corev1.PreemptLowerPriority && *p != corev1.PreemptNever {
		errs = append(errs, apierrors.NotSupported("preemptionPolicy", *p,
			[]string{string(corev1.PreemptLowerPriority), string(corev1.PreemptNever)}))
	}
	return errs
}

// ValidatePriorityClassUpdate checks an update of a PriorityClass: its
// value and preemption policy are immutable, as pods already carry them.
//
// Upstream: k8s.io/kubernetes/pkg/apis/scheduling/validation (ValidatePriorityClassUpdate).
func ValidatePriorityClassUpdate(pc, old *schedulingv1.PriorityClass) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&pc.ObjectMeta, &old.ObjectMeta, "metadata")
	if pc.Value != old.Value {
		errs = append(errs, apierrors.Forbidden("value", "may not be changed in an update."))
	}
	return append(errs, ValidateImmutableField(pc.PreemptionPolicy, old.PreemptionPolicy, "preemptionPolicy")...)
}

// knownSystemPriorityClass says why pc is not one of the system's
// classes, as they are defined; nil when it is.
//
// Upstream: k8s.io/kubernetes/pkg/apis/scheduling (IsKnownSystemPriorityClass).
func knownSystemPriorityClass(pc *schedulingv1.PriorityClass) error {
	for _, sys := range schedulingv1.SystemPriorityClasses() {
		if sys.Name != pc.Name {
			continue
		}
		if sys.Value != pc.Value {
			return fmt.Errorf("value of %v PriorityClass must be %v", sys.Name, sys.Value)
		}
		if sys.GlobalDefault != pc.GlobalDefault {
			return fmt.Errorf("globalDefault of %v PriorityClass must be %v", sys.Name, sys.GlobalDefault)
		}
		return nil
	}
	return fmt.Errorf("%v is not a known system priority class", pc.Name)
}
