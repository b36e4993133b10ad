package validation

import (
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// ValidateTolerations checks a pod's tolerations: keys are label names; an
// empty key needs operator Exists (it matches every taint); Exists takes
// no value; Equal (or empty) takes a label value; tolerationSeconds only
// goes with NoExecute; the effect, when set, is a known one.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateTolerations).
func ValidateTolerations(tolerations []corev1.Toleration, fldPath string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, t := range tolerations {
		idxPath := path(fldPath).index(i)
		if t.Key != "" {
			errs = append(errs, validateLabelName(t.Key, idxPath.child("key"))...)
		}
		if t.Key == "" && t.Operator != corev1.TolerationOpExists {
			errs = append(errs, apierrors.Invalid(idxPath.child("operator").String(), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
			errs = append(errs, apierrors.Invalid(idxPath.child("effect").String(), t.Effect,
				"effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case corev1.TolerationOpEqual, "":
			if msgs := IsValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, apierrors.Invalid(idxPath.child("operator").String(), t.Value, strings.Join(msgs, ";")))
			}
		case corev1.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, apierrors.Invalid(idxPath.child("operator").String(), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, apierrors.NotSupported(idxPath.child("operator").String(), t.Operator,
				[]string{string(corev1.TolerationOpEqual), string(corev1.TolerationOpExists)}))
		}
		if t.Effect != "" {
			errs = append(errs, validateTaintEffect(t.Effect, idxPath.child("effect"))...)
		}
	}
	return errs
}

func validateTaintEffect(effect corev1.TaintEffect, fldPath path) apierrors.FieldErrors {
	switch effect {
	case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
		return nil
	case "":
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.String(), effect, []string{
		string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectPreferNoSchedule), string(corev1.TaintEffectNoExecute)})}
}

func validateAffinity(a *corev1.Affinity, fldPath path) apierrors.FieldErrors {
	if a == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	if na := a.NodeAffinity; na != nil {
		naPath := fldPath.child("nodeAffinity")
		if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
			errs = append(errs, validateNodeSelector(req, naPath.child("requiredDuringSchedulingIgnoredDuringExecution"))...)
		}
		for i, term := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			termPath := naPath.child("preferredDuringSchedulingIgnoredDuringExecution").index(i)
			errs = append(errs, validateWeight(term.Weight, termPath.child("weight"))...)
			errs = append(errs, validateNodeSelectorTerm(term.Preference, termPath.child("preference"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution,
			pa.PreferredDuringSchedulingIgnoredDuringExecution, fldPath.child("podAffinity"))...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution,
			pa.PreferredDuringSchedulingIgnoredDuringExecution, fldPath.child("podAntiAffinity"))...)
	}
	return errs
}

func validateWeight(w int32, fldPath path) apierrors.FieldErrors {
	if w <= 0 || w > 100 {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), w, "must be in the range 1-100")}
	}
	return nil
}

func validateNodeSelector(sel *corev1.NodeSelector, fldPath path) apierrors.FieldErrors {
	termsPath := fldPath.child("nodeSelectorTerms")
	if len(sel.NodeSelectorTerms) == 0 {
		return apierrors.FieldErrors{apierrors.Required(termsPath.String(), "must have at least one node selector term")}
	}
	var errs apierrors.FieldErrors
	for i, term := range sel.NodeSelectorTerms {
		errs = append(errs, validateNodeSelectorTerm(term, termsPath.index(i))...)
	}
	return errs
}

func validateNodeSelectorTerm(term corev1.NodeSelectorTerm, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, req := range term.MatchExpressions {
		reqPath := fldPath.child("matchExpressions").index(i)
		switch req.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(req.Values) == 0 {
				errs = append(errs, apierrors.Required(reqPath.child("values").String(), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
			if len(req.Values) > 0 {
				errs = append(errs, apierrors.Forbidden(reqPath.child("values").String(), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
			if len(req.Values) != 1 {
				errs = append(errs, apierrors.Required(reqPath.child("values").String(), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			errs = append(errs, apierrors.Invalid(reqPath.child("operator").String(), req.Operator, "not a valid selector operator"))
		}
		errs = append(errs, validateLabelName(req.Key, reqPath.child("key"))...)
	}
	for i, req := range term.MatchFields {
		reqPath := fldPath.child("matchFields").index(i)
		switch req.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(req.Values) != 1 {
				errs = append(errs, apierrors.Required(reqPath.child("values").String(), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			errs = append(errs, apierrors.Invalid(reqPath.child("operator").String(), req.Operator, "not a valid selector operator"))
		}
		// metadata.name is the only node field a pod can select on.
		if req.Key != "metadata.name" {
			errs = append(errs, apierrors.Invalid(reqPath.child("key").String(), req.Key, "not a valid field selector key"))
			continue
		}
		for j, v := range req.Values {
			for _, msg := range IsDNS1123Subdomain(v) {
				errs = append(errs, apierrors.Invalid(reqPath.child("values").index(j).String(), v, msg))
			}
		}
	}
	return errs
}

func validatePodAffinityTerms(required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, term := range required {
		errs = append(errs, validatePodAffinityTerm(term, fldPath.child("requiredDuringSchedulingIgnoredDuringExecution").index(i))...)
	}
	for i, w := range preferred {
		wPath := fldPath.child("preferredDuringSchedulingIgnoredDuringExecution").index(i)
		errs = append(errs, validateWeight(w.Weight, wPath.child("weight"))...)
		errs = append(errs, validatePodAffinityTerm(w.PodAffinityTerm, wPath.child("podAffinityTerm"))...)
	}
	return errs
}

func validatePodAffinityTerm(term corev1.PodAffinityTerm, fldPath path) apierrors.FieldErrors {
	errs := ValidateLabelSelector(term.LabelSelector, fldPath.child("labelSelector").String())
	errs = append(errs, ValidateLabelSelector(term.NamespaceSelector, fldPath.child("namespaceSelector").String())...)
	for _, ns := range term.Namespaces {
		for _, msg := range IsDNS1123Label(ns) {
			errs = append(errs, apierrors.Invalid(fldPath.child("namespace").String(), ns, msg))
		}
	}
	if term.TopologyKey == "" {
		return append(errs, apierrors.Required(fldPath.child("topologyKey").String(), "can not be empty"))
	}
	return append(errs, validateLabelName(term.TopologyKey, fldPath.child("topologyKey"))...)
}

// ValidateLabelSelector checks a structured label selector: matchLabels
// are valid labels; each expression has a valid key, a known operator and
// values when (and only when) the operator takes them. A nil selector is
// valid.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateLabelSelector).
func ValidateLabelSelector(ps *metav1.LabelSelector, fldPath string) apierrors.FieldErrors {
	if ps == nil {
		return nil
	}
	p := path(fldPath)
	errs := ValidateLabels(ps.MatchLabels, p.child("matchLabels").String())
	for i, expr := range ps.MatchExpressions {
		exprPath := p.child("matchExpressions").index(i)
		switch expr.Operator {
		case "In", "NotIn":
			if len(expr.Values) == 0 {
				errs = append(errs, apierrors.Required(exprPath.child("values").String(), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case "Exists", "DoesNotExist":
			if len(expr.Values) > 0 {
				errs = append(errs, apierrors.Forbidden(exprPath.child("values").String(), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, apierrors.Invalid(exprPath.child("operator").String(), expr.Operator, "not a valid selector operator"))
		}
		errs = append(errs, validateLabelName(expr.Key, exprPath.child("key"))...)
		for j, v := range expr.Values {
			for _, msg := range IsValidLabelValue(v) {
				errs = append(errs, apierrors.Invalid(exprPath.child("values").index(j).String(), v, msg))
			}
		}
	}
	return errs
}

func validateTopologySpreadConstraints(constraints []corev1.TopologySpreadConstraint, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, c := range constraints {
		cPath := fldPath.index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, apierrors.Invalid(cPath.child("maxSkew").String(), c.MaxSkew, isNotPositiveErrMsg))
		}
		if c.TopologyKey == "" {
			errs = append(errs, apierrors.Required(cPath.child("topologyKey").String(), "can not be empty"))
		}
		switch c.WhenUnsatisfiable {
		case corev1.DoNotSchedule, corev1.ScheduleAnyway:
		default:
			errs = append(errs, apierrors.NotSupported(cPath.child("whenUnsatisfiable").String(), c.WhenUnsatisfiable,
				[]string{string(corev1.DoNotSchedule), string(corev1.ScheduleAnyway)}))
		}
		// {topologyKey, whenUnsatisfiable} identifies a constraint.
		for _, later := range constraints[i+1:] {
			if c.TopologyKey == later.TopologyKey && c.WhenUnsatisfiable == later.WhenUnsatisfiable {
				errs = append(errs, apierrors.Duplicate(cPath.child("{topologyKey, whenUnsatisfiable}").String(),
					fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, apierrors.Invalid(cPath.child("minDomains").String(), *c.MinDomains, isNotPositiveErrMsg))
			} else if c.WhenUnsatisfiable != corev1.DoNotSchedule {
				errs = append(errs, apierrors.Invalid(cPath.child("minDomains").String(), *c.MinDomains,
					fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", corev1.DoNotSchedule, c.WhenUnsatisfiable)))
			}
		}
		errs = append(errs, ValidateLabelSelector(c.LabelSelector, cPath.child("labelSelector").String())...)
	}
	return errs
}
