package validation

import (
	"errors"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// ValidatePodTemplateSpec checks the pod template of a workload at fldPath
// ("spec.template"): its labels and annotations (reported at
// "spec.template.labels", as upstream does, not under metadata) and its
// defaulted pod spec. The rest of a template's metadata is ignored: pods
// get their own names.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodTemplateSpec).
func ValidatePodTemplateSpec(spec *corev1.PodTemplateSpec, fldPath string) apierrors.FieldErrors {
	p := path(fldPath)
	errs := ValidateLabels(spec.Labels, p.child("labels").String())
	errs = append(errs, ValidateAnnotations(spec.Annotations, p.child("annotations").String())...)
	return append(errs, ValidatePodSpec(&spec.Spec, p.child("spec").String())...)
}

// validateWorkloadSelector checks the required selector of a Deployment or
// ReplicaSet at fldPath, and that it selects the template's labels: a
// workload whose pods it would not count would create pods forever. The
// message for an empty selector says "deployment" for ReplicaSets too, as
// upstream's does.
func validateWorkloadSelector(sel *metav1.LabelSelector, template *corev1.PodTemplateSpec, fldPath path) apierrors.FieldErrors {
	if sel == nil {
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	errs := ValidateLabelSelector(sel, fldPath.String())
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		errs = append(errs, apierrors.Invalid(fldPath.String(), sel, "empty selector is invalid for deployment"))
	}
	errs = append(errs, validateSelectorMatchesTemplate(sel, template, fldPath.String(), "spec.template.metadata.labels")...)
	return errs
}

// validateSelectorMatchesTemplate reports a selector that does not select
// the template's labels, at templateLabelsPath; a selector that does not
// parse is reported at selectorPath.
func validateSelectorMatchesTemplate(sel *metav1.LabelSelector, template *corev1.PodTemplateSpec, selectorPath, templateLabelsPath string) apierrors.FieldErrors {
	matches, err := selectorMatches(sel, template.Labels)
	if err != nil {
		return apierrors.FieldErrors{apierrors.Invalid(selectorPath, sel, "invalid label selector")}
	}
	if !matches {
		return apierrors.FieldErrors{apierrors.Invalid(templateLabelsPath, template.Labels, "`selector` does not match template `labels`")}
	}
	return nil
}

// selectorMatches reports whether a structured selector selects set; nil
// and empty selectors select everything here, since the caller has
// already reported them. It is labels.FromLabelSelector's matching, which
// this package cannot import (labels validates its keys with it).
func selectorMatches(sel *metav1.LabelSelector, set map[string]string) (bool, error) {
	if sel == nil {
		return true, nil
	}
	for k, v := range sel.MatchLabels {
		if got, ok := set[k]; !ok || got != v {
			return false, nil
		}
	}
	for _, expr := range sel.MatchExpressions {
		got, has := set[expr.Key]
		var ok bool
		switch expr.Operator {
		case "In":
			ok = has && slices.Contains(expr.Values, got)
		case "NotIn":
			ok = !has || !slices.Contains(expr.Values, got)
		case "Exists":
			ok = has
		case "DoesNotExist":
			ok = !has
		default:
			return false, errors.New("unknown operator " + expr.Operator)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// validateReplicaSetTemplate checks the pod template of a Deployment or
// ReplicaSet: a valid template whose pods restart Always (a replica that
// exits is restarted, never replaced) and have no deadline.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidatePodTemplateSpecForReplicaSet).
func validateReplicaSetTemplate(template *corev1.PodTemplateSpec, fldPath path) apierrors.FieldErrors {
	errs := ValidatePodTemplateSpec(template, fldPath.String())
	if template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, apierrors.NotSupported(fldPath.child("spec", "restartPolicy").String(), template.Spec.RestartPolicy,
			[]string{string(corev1.RestartPolicyAlways)}))
	}
	if template.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apierrors.Forbidden(fldPath.child("spec", "activeDeadlineSeconds").String(), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// validateNonnegative reports a negative count or duration.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateNonnegativeField).
func validateNonnegative(value int64, fldPath path) apierrors.FieldErrors {
	if value < 0 {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), value, isNegativeErrorMsg)}
	}
	return nil
}

// validateNonnegativePtr is validateNonnegative for an optional field.
func validateNonnegativePtr[T int32 | int64](value *T, fldPath path) apierrors.FieldErrors {
	if value == nil {
		return nil
	}
	return validateNonnegative(int64(*value), fldPath)
}
