package validation

import (
	"regexp"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
)

// ValidatePodDisruptionBudget checks a PodDisruptionBudget being created
// or updated (its spec may change): a namespaced object named by a DNS
// subdomain, at most one of minAvailable and maxUnavailable, each a
// non-negative count or a percentage up to 100%, a valid selector and a
// known unhealthyPodEvictionPolicy.
//
// Upstream: k8s.io/kubernetes/pkg/apis/policy/validation
// (ValidatePodDisruptionBudget, ValidatePodDisruptionBudgetSpec).
func ValidatePodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&pdb.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, validatePodDisruptionBudgetSpec(&pdb.Spec, path("spec"))...)
}

// ValidatePodDisruptionBudgetUpdate checks an update of a budget: the
// metadata update rules and the new spec.
func ValidatePodDisruptionBudgetUpdate(pdb, old *policyv1.PodDisruptionBudget) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&pdb.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, validatePodDisruptionBudgetSpec(&pdb.Spec, path("spec"))...)
}

func validatePodDisruptionBudgetSpec(spec *policyv1.PodDisruptionBudgetSpec, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, apierrors.Invalid(fldPath.String(), *spec, "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, f := range []struct {
		name  string
		value *intstr.IntOrString
	}{{"minAvailable", spec.MinAvailable}, {"maxUnavailable", spec.MaxUnavailable}} {
		if f.value == nil {
			continue
		}
		p := fldPath.child(f.name)
		errs = append(errs, validatePositiveIntOrPercent(f.value, p)...)
		if v, isPercent := percentValue(f.value); isPercent && v > 100 {
			errs = append(errs, apierrors.Invalid(p.String(), f.value.String(), "must not be greater than 100%"))
		}
	}
	errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.child("selector").String())...)
	if p := spec.UnhealthyPodEvictionPolicy; p != nil && *p != policyv1.IfHealthyBudget && *p != policyv1.AlwaysAllow {
		errs = append(errs, apierrors.NotSupported(fldPath.child("unhealthyPodEvictionPolicy").String(), *p,
			[]string{string(policyv1.AlwaysAllow), string(policyv1.IfHealthyBudget)}))
	}
	return errs
}

// ValidatePodDisruptionBudgetStatusUpdate checks a write of a budget's
// status: valid conditions and non-negative counts.
//
// Upstream: k8s.io/kubernetes/pkg/apis/policy/validation
// (ValidatePodDisruptionBudgetStatusUpdate).
func ValidatePodDisruptionBudgetStatusUpdate(pdb, old *policyv1.PodDisruptionBudget) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&pdb.ObjectMeta, &old.ObjectMeta, "metadata")
	s, p := &pdb.Status, path("status")
	errs = append(errs, ValidateConditions(s.Conditions, p.child("conditions").String())...)
	for _, f := range []struct {
		name  string
		value int32
	}{
		{"disruptionsAllowed", s.DisruptionsAllowed}, {"currentHealthy", s.CurrentHealthy},
		{"desiredHealthy", s.DesiredHealthy}, {"expectedPods", s.ExpectedPods},
	} {
		errs = append(errs, validateNonnegative(int64(f.value), p.child(f.name))...)
	}
	return errs
}

// conditionReasonFmt is what a condition's reason looks like: a CamelCase
// word, as upstream requires.
const conditionReasonFmt = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?"

var conditionReasonRegexp = regexp.MustCompile("^" + conditionReasonFmt + "$")

// maxConditionMessageLength bounds a condition's message, as upstream.
const maxConditionMessageLength = 32 * 1024

// ValidateConditions checks metav1.Conditions: a qualified-name type,
// unique in the list, a known status, a set lastTransitionTime, a
// CamelCase reason, a bounded message and a non-negative
// observedGeneration.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateConditions).
func ValidateConditions(conditions []metav1.Condition, fldPath string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	seen := map[string]bool{}
	for i, c := range conditions {
		p := path(fldPath).index(i)
		typePath := p.child("type")
		if c.Type == "" {
			errs = append(errs, apierrors.Required(typePath.String(), "must be set"))
		} else {
			for _, msg := range IsQualifiedName(c.Type) {
				errs = append(errs, apierrors.Invalid(typePath.String(), c.Type, msg))
			}
			if seen[c.Type] {
				errs = append(errs, apierrors.Duplicate(typePath.String(), c.Type))
			}
			seen[c.Type] = true
		}
		switch c.Status {
		case metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown:
		default:
			errs = append(errs, apierrors.NotSupported(p.child("status").String(), c.Status, []string{"False", "True", "Unknown"}))
		}
		errs = append(errs, validateNonnegative(c.ObservedGeneration, p.child("observedGeneration"))...)
		if c.LastTransitionTime.IsZero() {
			errs = append(errs, apierrors.Required(p.child("lastTransitionTime").String(), "must be set"))
		}
		reasonPath := p.child("reason")
		switch {
		case c.Reason == "":
			errs = append(errs, apierrors.Required(reasonPath.String(), "must be set"))
		case !conditionReasonRegexp.MatchString(c.Reason):
			errs = append(errs, apierrors.Invalid(reasonPath.String(), c.Reason, RegexError(
				"a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
				conditionReasonFmt, "my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB")))
		}
		if len(c.Message) > maxConditionMessageLength {
			errs = append(errs, apierrors.TooLong(p.child("message").String(), c.Message, maxConditionMessageLength))
		}
	}
	return errs
}
