package v1

import (
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	"github.com/minicp/minicp/api/resource"
)

// The metrics of the round-trip annotations are in autoscaling/v2beta1's
// shape (a target value per source) rather than v2's MetricTarget; these
// functions convert one metric at a time, as upstream's per-source
// conversions do.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/v1/conversion.go.

func metricSpecToV2(in *MetricSpec) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: autoscalingv2.MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		t := autoscalingv2.ValueMetricType
		if o.AverageValue != nil {
			t = autoscalingv2.AverageValueMetricType
		}
		value := o.TargetValue
		out.Object = &autoscalingv2.ObjectMetricSource{
			DescribedObject: autoscalingv2.CrossVersionObjectReference(o.Target),
			Target:          autoscalingv2.MetricTarget{Type: t, Value: &value, AverageValue: copyPtr(o.AverageValue)},
			Metric:          autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector},
		}
	}
	if p := in.Pods; p != nil {
		avg := p.TargetAverageValue
		out.Pods = &autoscalingv2.PodsMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: p.MetricName, Selector: p.Selector},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &avg},
		}
	}
	if r := in.Resource; r != nil {
		out.Resource = &autoscalingv2.ResourceMetricSource{Name: r.Name, Target: resourceTarget(r.TargetAverageUtilization, r.TargetAverageValue)}
	}
	if r := in.ContainerResource; r != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{
			Name: r.Name, Container: r.Container, Target: resourceTarget(r.TargetAverageUtilization, r.TargetAverageValue),
		}
	}
	if e := in.External; e != nil {
		t := autoscalingv2.ValueMetricType
		if e.TargetValue == nil {
			t = autoscalingv2.AverageValueMetricType
		}
		out.External = &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector},
			Target: autoscalingv2.MetricTarget{Type: t, Value: copyPtr(e.TargetValue), AverageValue: copyPtr(e.TargetAverageValue)},
		}
	}
	return out
}

// resourceTarget is a resource metric's target: a utilization when one
// is given, an average value otherwise.
func resourceTarget(utilization *int32, averageValue *resource.Quantity) autoscalingv2.MetricTarget {
	t := autoscalingv2.AverageValueMetricType
	if utilization != nil {
		t = autoscalingv2.UtilizationMetricType
	}
	return autoscalingv2.MetricTarget{Type: t, AverageValue: copyPtr(averageValue), AverageUtilization: copyPtr(utilization)}
}

func metricSpecFromV2(in *autoscalingv2.MetricSpec) MetricSpec {
	out := MetricSpec{Type: MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		out.Object = &ObjectMetricSource{
			Target: CrossVersionObjectReference(o.DescribedObject), MetricName: o.Metric.Name,
			TargetValue: quantity(o.Target.Value), Selector: o.Metric.Selector, AverageValue: copyPtr(o.Target.AverageValue),
		}
	}
	if p := in.Pods; p != nil {
		out.Pods = &PodsMetricSource{MetricName: p.Metric.Name, TargetAverageValue: quantity(p.Target.AverageValue), Selector: p.Metric.Selector}
	}
	if r := in.Resource; r != nil {
		out.Resource = &ResourceMetricSource{
			Name: r.Name, TargetAverageUtilization: copyPtr(r.Target.AverageUtilization), TargetAverageValue: copyPtr(r.Target.AverageValue),
		}
	}
	if r := in.ContainerResource; r != nil {
		out.ContainerResource = &ContainerResourceMetricSource{
			Name: r.Name, Container: r.Container,
			TargetAverageUtilization: copyPtr(r.Target.AverageUtilization), TargetAverageValue: copyPtr(r.Target.AverageValue),
		}
	}
	if e := in.External; e != nil {
		out.External = &ExternalMetricSource{
			MetricName: e.Metric.Name, MetricSelector: e.Metric.Selector,
			TargetValue: copyPtr(e.Target.Value), TargetAverageValue: copyPtr(e.Target.AverageValue),
		}
	}
	return out
}

func metricStatusToV2(in *MetricStatus) autoscalingv2.MetricStatus {
	out := autoscalingv2.MetricStatus{Type: autoscalingv2.MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		value := o.CurrentValue
		out.Object = &autoscalingv2.ObjectMetricStatus{
			Metric:          autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector},
			Current:         autoscalingv2.MetricValueStatus{Value: &value, AverageValue: copyPtr(o.AverageValue)},
			DescribedObject: autoscalingv2.CrossVersionObjectReference(o.Target),
		}
	}
	if p := in.Pods; p != nil {
		avg := p.CurrentAverageValue
		out.Pods = &autoscalingv2.PodsMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: p.MetricName, Selector: p.Selector},
			Current: autoscalingv2.MetricValueStatus{AverageValue: &avg},
		}
	}
	if r := in.Resource; r != nil {
		avg := r.CurrentAverageValue
		out.Resource = &autoscalingv2.ResourceMetricStatus{Name: r.Name, Current: autoscalingv2.MetricValueStatus{
			AverageValue: &avg, AverageUtilization: copyPtr(r.CurrentAverageUtilization),
		}}
	}
	if r := in.ContainerResource; r != nil {
		avg := r.CurrentAverageValue
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricStatus{Name: r.Name, Container: r.Container, Current: autoscalingv2.MetricValueStatus{
			AverageValue: &avg, AverageUtilization: copyPtr(r.CurrentAverageUtilization),
		}}
	}
	if e := in.External; e != nil {
		value := e.CurrentValue
		out.External = &autoscalingv2.ExternalMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector},
			Current: autoscalingv2.MetricValueStatus{Value: &value, AverageValue: copyPtr(e.CurrentAverageValue)},
		}
	}
	return out
}

func metricStatusFromV2(in *autoscalingv2.MetricStatus) MetricStatus {
	out := MetricStatus{Type: MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		out.Object = &ObjectMetricStatus{
			Target: CrossVersionObjectReference(o.DescribedObject), MetricName: o.Metric.Name,
			CurrentValue: quantity(o.Current.Value), Selector: o.Metric.Selector, AverageValue: copyPtr(o.Current.AverageValue),
		}
	}
	if p := in.Pods; p != nil {
		out.Pods = &PodsMetricStatus{MetricName: p.Metric.Name, CurrentAverageValue: quantity(p.Current.AverageValue), Selector: p.Metric.Selector}
	}
	if r := in.Resource; r != nil {
		out.Resource = &ResourceMetricStatus{
			Name: r.Name, CurrentAverageUtilization: copyPtr(r.Current.AverageUtilization), CurrentAverageValue: quantity(r.Current.AverageValue),
		}
	}
	if r := in.ContainerResource; r != nil {
		out.ContainerResource = &ContainerResourceMetricStatus{
			Name: r.Name, Container: r.Container,
			CurrentAverageUtilization: copyPtr(r.Current.AverageUtilization), CurrentAverageValue: quantity(r.Current.AverageValue),
		}
	}
	if e := in.External; e != nil {
		out.External = &ExternalMetricStatus{
			MetricName: e.Metric.Name, MetricSelector: e.Metric.Selector,
			CurrentValue: quantity(e.Current.Value), CurrentAverageValue: copyPtr(e.Current.AverageValue),
		}
	}
	return out
}

// behaviorAnnotation is spec.behavior as BehaviorSpecsAnnotation holds
// it: upstream marshals its internal type, which has no json tags, so the
// keys are the Go field names ("ScaleUp", "StabilizationWindowSeconds")
// and unset pointers are written as null. Kept word for word so that an
// annotation written by kube-apiserver reads here and the other way round.
type behaviorAnnotation struct {
	ScaleUp   *rulesAnnotation
	ScaleDown *rulesAnnotation
}

type rulesAnnotation struct {
	StabilizationWindowSeconds *int32
	SelectPolicy               *autoscalingv2.ScalingPolicySelect
	Policies                   []policyAnnotation
	Tolerance                  *resource.Quantity
}

type policyAnnotation struct {
	Type          autoscalingv2.HPAScalingPolicyType
	Value         int32
	PeriodSeconds int32
}

func behaviorFromV2(b *autoscalingv2.HorizontalPodAutoscalerBehavior) behaviorAnnotation {
	rules := func(r *autoscalingv2.HPAScalingRules) *rulesAnnotation {
		if r == nil {
			return nil
		}
		out := &rulesAnnotation{StabilizationWindowSeconds: copyPtr(r.StabilizationWindowSeconds), SelectPolicy: copyPtr(r.SelectPolicy), Tolerance: copyPtr(r.Tolerance)}
		if r.Policies != nil {
			out.Policies = make([]policyAnnotation, len(r.Policies))
			for i, p := range r.Policies {
				out.Policies[i] = policyAnnotation(p)
			}
		}
		return out
	}
	return behaviorAnnotation{ScaleUp: rules(b.ScaleUp), ScaleDown: rules(b.ScaleDown)}
}

func (b behaviorAnnotation) toV2() *autoscalingv2.HorizontalPodAutoscalerBehavior {
	rules := func(r *rulesAnnotation) *autoscalingv2.HPAScalingRules {
		if r == nil {
			return nil
		}
		out := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Tolerance: r.Tolerance}
		if r.Policies != nil {
			out.Policies = make([]autoscalingv2.HPAScalingPolicy, len(r.Policies))
			for i, p := range r.Policies {
				out.Policies[i] = autoscalingv2.HPAScalingPolicy(p)
			}
		}
		return out
	}
	return &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: rules(b.ScaleUp), ScaleDown: rules(b.ScaleDown)}
}
