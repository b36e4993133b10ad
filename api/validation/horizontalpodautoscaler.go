package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
)

// The bounds of an autoscaler's behavior, as upstream.
const (
	// maxStabilizationWindowSeconds is an hour: a longer window would
	// keep an autoscaler from reacting at all.
	maxStabilizationWindowSeconds = 3600
	// maxPeriodSeconds is half an hour, the longest period a scaling
	// policy may count changes over.
	maxPeriodSeconds = 1800
)

// ValidateHorizontalPodAutoscaler checks a defaulted autoscaler being
// created, in its autoscaling/v2 form: an autoscaler written at v1 is
// validated after conversion, so its errors name v2 paths
// (spec.metrics[0].resource.target.averageUtilization), as kube-apiserver's
// do.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/validation (ValidateHorizontalPodAutoscaler).
func ValidateHorizontalPodAutoscaler(hpa *autoscalingv2.HorizontalPodAutoscaler) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&hpa.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, validateHPASpec(&hpa.Spec, path("spec"))...)
}

// ValidateHorizontalPodAutoscalerUpdate checks an update: the metadata
// update rules and the new spec.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/validation (ValidateHorizontalPodAutoscalerUpdate).
func ValidateHorizontalPodAutoscalerUpdate(hpa, old *autoscalingv2.HorizontalPodAutoscaler) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&hpa.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, validateHPASpec(&hpa.Spec, path("spec"))...)
}

// ValidateHorizontalPodAutoscalerStatusUpdate checks a write of the
// status: non-negative current and desired replicas.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/validation (ValidateHorizontalPodAutoscalerStatusUpdate).
func ValidateHorizontalPodAutoscalerStatusUpdate(hpa, old *autoscalingv2.HorizontalPodAutoscaler) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&hpa.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, validateNonnegative(int64(hpa.Status.CurrentReplicas), path("status.currentReplicas"))...)
	return append(errs, validateNonnegative(int64(hpa.Status.DesiredReplicas), path("status.desiredReplicas"))...)
}

func validateHPASpec(spec *autoscalingv2.HorizontalPodAutoscalerSpec, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	// Scaling to zero is an alpha feature upstream, off by default.
	if spec.MinReplicas != nil && *spec.MinReplicas < 1 {
		errs = append(errs, apierrors.Invalid(fldPath.child("minReplicas").String(), *spec.MinReplicas, "must be greater than or equal to 1"))
	}
	if spec.MaxReplicas < 1 {
		errs = append(errs, apierrors.Invalid(fldPath.child("maxReplicas").String(), spec.MaxReplicas, "must be greater than 0"))
	}
	if spec.MinReplicas != nil && spec.MaxReplicas < *spec.MinReplicas {
		errs = append(errs, apierrors.Invalid(fldPath.child("maxReplicas").String(), spec.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	errs = append(errs, validateCrossVersionObjectReference(spec.ScaleTargetRef, fldPath.child("scaleTargetRef"))...)
	for i := range spec.Metrics {
		errs = append(errs, validateMetricSpec(&spec.Metrics[i], fldPath.child("metrics").index(i))...)
	}
	if b := spec.Behavior; b != nil {
		errs = append(errs, validateScalingRules(b.ScaleUp, fldPath.child("behavior", "scaleUp"))...)
		errs = append(errs, validateScalingRules(b.ScaleDown, fldPath.child("behavior", "scaleDown"))...)
	}
	return errs
}

func validateCrossVersionObjectReference(ref autoscalingv2.CrossVersionObjectReference, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, f := range []struct{ name, value string }{{"kind", ref.Kind}, {"name", ref.Name}} {
		if f.value == "" {
			errs = append(errs, apierrors.Required(fldPath.child(f.name).String(), ""))
			continue
		}
		for _, msg := range IsValidPathSegmentName(f.value) {
			errs = append(errs, apierrors.Invalid(fldPath.child(f.name).String(), f.value, msg))
		}
	}
	return errs
}

// validMetricSourceTypes are the metric source types, sorted as
// upstream's NotSupported lists them.
var validMetricSourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

func validateMetricSpec(spec *autoscalingv2.MetricSpec, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if spec.Type == "" {
		errs = append(errs, apierrors.Required(fldPath.child("type").String(), "must specify a metric source type"))
	}
	// present lists the sources set, in upstream's order; only the first
	// is validated, the others are reported as extra below.
	var present []string
	if spec.Object != nil {
		if present = append(present, "object"); len(present) == 1 {
			errs = append(errs, validateObjectSource(spec.Object, fldPath.child("object"))...)
		}
	}
	if spec.External != nil {
		if present = append(present, "external"); len(present) == 1 {
			errs = append(errs, validateExternalSource(spec.External, fldPath.child("external"))...)
		}
	}
	if spec.Pods != nil {
		if present = append(present, "pods"); len(present) == 1 {
			errs = append(errs, validatePodsSource(spec.Pods, fldPath.child("pods"))...)
		}
	}
	if spec.Resource != nil {
		if present = append(present, "resource"); len(present) == 1 {
			errs = append(errs, validateResourceSource(string(spec.Resource.Name), "", spec.Resource.Target, fldPath.child("resource"), false)...)
		}
	}
	if spec.ContainerResource != nil {
		if present = append(present, "containerResource"); len(present) == 1 {
			c := spec.ContainerResource
			errs = append(errs, validateResourceSource(string(c.Name), c.Container, c.Target, fldPath.child("containerResource"), true)...)
		}
	}
	expected, set := "", false
	switch spec.Type {
	case autoscalingv2.ObjectMetricSourceType:
		expected, set = "object", spec.Object != nil
	case autoscalingv2.PodsMetricSourceType:
		expected, set = "pods", spec.Pods != nil
	case autoscalingv2.ResourceMetricSourceType:
		expected, set = "resource", spec.Resource != nil
	case autoscalingv2.ExternalMetricSourceType:
		expected, set = "external", spec.External != nil
	case autoscalingv2.ContainerResourceMetricSourceType:
		expected, set = "containerResource", spec.ContainerResource != nil
	default:
		errs = append(errs, apierrors.NotSupported(fldPath.child("type").String(), spec.Type, validMetricSourceTypes))
	}
	if expected != "" && !set {
		errs = append(errs, apierrors.Required(fldPath.child(expected).String(), "must populate information for the given metric source"))
	}
	if len(present) != 1 {
		for _, typ := range present {
			if typ != expected {
				errs = append(errs, apierrors.Forbidden(fldPath.child(typ).String(), "must populate the given metric source only"))
			}
		}
	}
	return errs
}

func validateObjectSource(src *autoscalingv2.ObjectMetricSource, fldPath path) apierrors.FieldErrors {
	errs := validateCrossVersionObjectReference(src.DescribedObject, fldPath.child("describedObject"))
	errs = append(errs, validateMetricIdentifier(src.Metric, fldPath.child("metric"))...)
	errs = append(errs, validateMetricTarget(src.Target, fldPath.child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, apierrors.Required(fldPath.child("target", "averageValue").String(), "must set either a target value or averageValue"))
	}
	return errs
}

func validateExternalSource(src *autoscalingv2.ExternalMetricSource, fldPath path) apierrors.FieldErrors {
	errs := validateMetricIdentifier(src.Metric, fldPath.child("metric"))
	errs = append(errs, validateMetricTarget(src.Target, fldPath.child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, apierrors.Required(fldPath.child("target", "averageValue").String(), "must set either a target value for metric or a per-pod target"))
	}
	if src.Target.Value != nil && src.Target.AverageValue != nil {
		errs = append(errs, apierrors.Forbidden(fldPath.child("target", "value").String(), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

func validatePodsSource(src *autoscalingv2.PodsMetricSource, fldPath path) apierrors.FieldErrors {
	errs := validateMetricIdentifier(src.Metric, fldPath.child("metric"))
	errs = append(errs, validateMetricTarget(src.Target, fldPath.child("target"))...)
	if src.Target.AverageValue == nil {
		errs = append(errs, apierrors.Required(fldPath.child("target", "averageValue").String(), "must specify a positive target averageValue"))
	}
	return errs
}

// validateResourceSource checks a Resource metric, or a ContainerResource
// one (with its container) when container is true.
func validateResourceSource(name, containerName string, target autoscalingv2.MetricTarget, fldPath path, container bool) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if name == "" {
		errs = append(errs, apierrors.Required(fldPath.child("name").String(), "must specify a resource name"))
	} else {
		for _, msg := range IsQualifiedName(name) {
			errs = append(errs, apierrors.Invalid(fldPath.child("name").String(), name, msg))
		}
	}
	if container {
		if containerName == "" {
			errs = append(errs, apierrors.Required(fldPath.child("container").String(), "must specify a container"))
		} else {
			for _, msg := range IsDNS1123Label(containerName) {
				errs = append(errs, apierrors.Invalid(fldPath.child("container").String(), containerName, msg))
			}
		}
	}
	errs = append(errs, validateMetricTarget(target, fldPath.child("target"))...)
	if target.AverageUtilization == nil && target.AverageValue == nil {
		errs = append(errs, apierrors.Required(fldPath.child("target", "averageUtilization").String(), "must set either a target raw value or a target utilization"))
	}
	if target.AverageUtilization != nil && target.AverageValue != nil {
		errs = append(errs, apierrors.Forbidden(fldPath.child("target", "averageValue").String(), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

func validateMetricTarget(t autoscalingv2.MetricTarget, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if t.Type == "" {
		errs = append(errs, apierrors.Required(fldPath.child("type").String(), "must specify a metric target type"))
	}
	if t.Type != autoscalingv2.UtilizationMetricType && t.Type != autoscalingv2.ValueMetricType && t.Type != autoscalingv2.AverageValueMetricType {
		errs = append(errs, apierrors.Invalid(fldPath.child("type").String(), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.Value != nil && t.Value.Sign() != 1 {
		errs = append(errs, apierrors.Invalid(fldPath.child("value").String(), t.Value, "must be positive"))
	}
	if t.AverageValue != nil && t.AverageValue.Sign() != 1 {
		errs = append(errs, apierrors.Invalid(fldPath.child("averageValue").String(), t.AverageValue, "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, apierrors.Invalid(fldPath.child("averageUtilization").String(), *t.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

func validateMetricIdentifier(id autoscalingv2.MetricIdentifier, fldPath path) apierrors.FieldErrors {
	if id.Name == "" {
		return apierrors.FieldErrors{apierrors.Required(fldPath.child("name").String(), "must specify a metric name")}
	}
	var errs apierrors.FieldErrors
	for _, msg := range IsValidPathSegmentName(id.Name) {
		errs = append(errs, apierrors.Invalid(fldPath.child("name").String(), id.Name, msg))
	}
	return append(errs, ValidateLabelSelector(id.Selector, fldPath.child("selector").String())...)
}

func validateScalingRules(rules *autoscalingv2.HPAScalingRules, fldPath path) apierrors.FieldErrors {
	if rules == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	if w := rules.StabilizationWindowSeconds; w != nil {
		if *w < 0 {
			errs = append(errs, apierrors.Invalid(fldPath.child("stabilizationWindowSeconds").String(), *w, "must be greater than or equal to zero"))
		}
		if *w > maxStabilizationWindowSeconds {
			errs = append(errs, apierrors.Invalid(fldPath.child("stabilizationWindowSeconds").String(), *w,
				fmt.Sprintf("must be less than or equal to %v", maxStabilizationWindowSeconds)))
		}
	}
	if p := rules.SelectPolicy; p != nil && *p != autoscalingv2.MaxChangePolicySelect && *p != autoscalingv2.MinChangePolicySelect && *p != autoscalingv2.DisabledPolicySelect {
		errs = append(errs, apierrors.NotSupported(fldPath.child("selectPolicy").String(), *p, []string{"Disabled", "Max", "Min"}))
	}
	if len(rules.Policies) == 0 {
		errs = append(errs, apierrors.Required(fldPath.child("policies").String(), "must specify at least one Policy"))
	}
	for i, p := range rules.Policies {
		pp := fldPath.child("policies").index(i)
		if p.Type != autoscalingv2.PodsScalingPolicy && p.Type != autoscalingv2.PercentScalingPolicy {
			errs = append(errs, apierrors.NotSupported(pp.child("type").String(), p.Type, []string{"Percent", "Pods"}))
		}
		if p.Value <= 0 {
			errs = append(errs, apierrors.Invalid(pp.child("value").String(), p.Value, "must be greater than zero"))
		}
		if p.PeriodSeconds <= 0 {
			errs = append(errs, apierrors.Invalid(pp.child("periodSeconds").String(), p.PeriodSeconds, "must be greater than zero"))
		}
		if p.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, apierrors.Invalid(pp.child("periodSeconds").String(), p.PeriodSeconds,
				fmt.Sprintf("must be less than or equal to %v", maxPeriodSeconds)))
		}
	}
	return errs
}
