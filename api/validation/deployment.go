package validation

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	"github.com/minicp/minicp/api/intstr"
)

// ValidateDeployment checks a defaulted Deployment being created: a
// namespaced object named by a DNS subdomain, and its spec.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateDeployment).
func ValidateDeployment(d *appsv1.Deployment) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&d.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, validateDeploymentSpec(&d.Spec, path("spec"))...)
}

// validateDeploymentSpec checks replicas, the selector (required, non-empty,
// selecting the template), the template (restartPolicy Always), the
// strategy, and the non-negative durations, with progressDeadlineSeconds
// above minReadySeconds.
func validateDeploymentSpec(spec *appsv1.DeploymentSpec, fldPath path) apierrors.FieldErrors {
	errs := validateNonnegativePtr(spec.Replicas, fldPath.child("replicas"))
	errs = append(errs, validateWorkloadSelector(spec.Selector, &spec.Template, fldPath.child("selector"))...)
	errs = append(errs, validateReplicaSetTemplate(&spec.Template, fldPath.child("template"))...)
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, fldPath.child("strategy"))...)
	errs = append(errs, validateNonnegative(int64(spec.MinReadySeconds), fldPath.child("minReadySeconds"))...)
	errs = append(errs, validateNonnegativePtr(spec.RevisionHistoryLimit, fldPath.child("revisionHistoryLimit"))...)
	if d := spec.ProgressDeadlineSeconds; d != nil {
		errs = append(errs, validateNonnegative(int64(*d), fldPath.child("progressDeadlineSeconds"))...)
		if *d <= spec.MinReadySeconds {
			errs = append(errs, apierrors.Invalid(fldPath.child("progressDeadlineSeconds").String(), *d, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

func validateDeploymentStrategy(s *appsv1.DeploymentStrategy, fldPath path) apierrors.FieldErrors {
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return apierrors.FieldErrors{apierrors.Forbidden(fldPath.child("rollingUpdate").String(),
				"may not be specified when strategy `type` is '"+string(appsv1.RecreateDeploymentStrategyType)+"'")}
		}
		return nil
	case appsv1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return apierrors.FieldErrors{apierrors.Required(fldPath.child("rollingUpdate").String(), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, fldPath.child("rollingUpdate"))
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.child("type").String(), s.Type,
		[]string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)})}
}

func validateRollingUpdateDeployment(ru *appsv1.RollingUpdateDeployment, fldPath path) apierrors.FieldErrors {
	unavailablePath, surgePath := fldPath.child("maxUnavailable"), fldPath.child("maxSurge")
	errs := validatePositiveIntOrPercent(ru.MaxUnavailable, unavailablePath)
	errs = append(errs, validatePositiveIntOrPercent(ru.MaxSurge, surgePath)...)
	// With neither surge nor unavailability a rollout could never move.
	if intOrPercentValue(ru.MaxUnavailable) == 0 && intOrPercentValue(ru.MaxSurge) == 0 {
		errs = append(errs, apierrors.Invalid(unavailablePath.String(), ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	if v, isPercent := percentValue(ru.MaxUnavailable); isPercent && v > 100 {
		errs = append(errs, apierrors.Invalid(unavailablePath.String(), ru.MaxUnavailable, "must not be greater than 100%"))
	}
	return errs
}

const percentFmt = "[0-9]+%"

var percentRegexp = regexp.MustCompile("^" + percentFmt + "$")

// validatePositiveIntOrPercent checks a non-negative count or a "NN%"
// percentage. A nil value is left to defaulting.
func validatePositiveIntOrPercent(v *intstr.IntOrString, fldPath path) apierrors.FieldErrors {
	if v == nil {
		return nil
	}
	if v.Type == intstr.String {
		if !percentRegexp.MatchString(v.StrVal) {
			return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), v.StrVal,
				RegexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, "1%", "93%"))}
		}
		return nil
	}
	return validateNonnegative(int64(v.IntVal), fldPath)
}

// percentValue returns the number of a "NN%" value and whether it is one.
func percentValue(v *intstr.IntOrString) (int, bool) {
	if v == nil || v.Type != intstr.String || !percentRegexp.MatchString(v.StrVal) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return n, err == nil
}

// intOrPercentValue is the number in a count or a percentage; 0 for nil.
func intOrPercentValue(v *intstr.IntOrString) int {
	if p, ok := percentValue(v); ok {
		return p
	}
	if v == nil || v.Type == intstr.String {
		return 0
	}
	return int(v.IntVal)
}

// ValidateDeploymentUpdate checks an update of a Deployment: the metadata
// update rules, the new spec, and an unchanged selector.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateDeploymentUpdate)
// and the selector check of the deployment strategy's ValidateUpdate.
func ValidateDeploymentUpdate(d, old *appsv1.Deployment) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, validateDeploymentSpec(&d.Spec, path("spec"))...)
	return append(errs, ValidateImmutableField(d.Spec.Selector, old.Spec.Selector, "spec.selector")...)
}

// ValidateDeploymentStatusUpdate checks a write of a Deployment's status:
// non-negative counts, none above status.replicas, available not above
// ready, and a collisionCount that never goes down.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateDeploymentStatusUpdate).
func ValidateDeploymentStatusUpdate(d, old *appsv1.Deployment) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, "metadata")
	s, p := &d.Status, path("status")
	errs = append(errs, validateNonnegative(s.ObservedGeneration, p.child("observedGeneration"))...)
	for _, f := range []struct {
		name  string
		value int32
	}{
		{"replicas", s.Replicas}, {"updatedReplicas", s.UpdatedReplicas}, {"readyReplicas", s.ReadyReplicas},
		{"availableReplicas", s.AvailableReplicas}, {"unavailableReplicas", s.UnavailableReplicas},
	} {
		errs = append(errs, validateNonnegative(int64(f.value), p.child(f.name))...)
	}
	errs = append(errs, validateNonnegativePtr(s.TerminatingReplicas, p.child("terminatingReplicas"))...)
	errs = append(errs, validateNonnegativePtr(s.CollisionCount, p.child("collisionCount"))...)
	const msg = "cannot be greater than status.replicas"
	if s.UpdatedReplicas > s.Replicas {
		errs = append(errs, apierrors.Invalid(p.child("updatedReplicas").String(), s.UpdatedReplicas, msg))
	}
	if s.ReadyReplicas > s.Replicas {
		errs = append(errs, apierrors.Invalid(p.child("readyReplicas").String(), s.ReadyReplicas, msg))
	}
	if s.AvailableReplicas > s.Replicas {
		errs = append(errs, apierrors.Invalid(p.child("availableReplicas").String(), s.AvailableReplicas, msg))
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, apierrors.Invalid(p.child("availableReplicas").String(), s.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	if oc := old.Status.CollisionCount; oc != nil && (s.CollisionCount == nil || *s.CollisionCount < *oc) {
		value := int32(0)
		if s.CollisionCount != nil {
			value = *s.CollisionCount
		}
		errs = append(errs, apierrors.Invalid(p.child("collisionCount").String(), value, "cannot be decremented"))
	}
	return errs
}
