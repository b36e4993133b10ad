package v1

import (
	"encoding/json"
	"maps"

	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
)

// The annotations in which an autoscaling/v1 HorizontalPodAutoscaler
// carries what only autoscaling/v2 can express, so that a client that
// reads and writes back a v1 object loses none of it. They exist only in
// the v1 form: converting to v2 moves them back into fields.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/annotations.go.
const (
	// MetricSpecsAnnotation holds the metrics other than a CPU
	// utilization target, as a JSON list of v1 MetricSpecs.
	MetricSpecsAnnotation = "autoscaling.alpha.kubernetes.io/metrics"
	// MetricStatusesAnnotation holds status.currentMetrics, as a JSON
	// list of v1 MetricStatuses.
	MetricStatusesAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	// ConditionsAnnotation holds status.conditions.
	ConditionsAnnotation = "autoscaling.alpha.kubernetes.io/conditions"
	// BehaviorSpecsAnnotation holds spec.behavior.
	BehaviorSpecsAnnotation = "autoscaling.alpha.kubernetes.io/behavior"
)

// roundTripAnnotations are the annotations ConvertToV2 turns back into
// fields.
var roundTripAnnotations = []string{MetricSpecsAnnotation, MetricStatusesAnnotation, ConditionsAnnotation, BehaviorSpecsAnnotation}

// ConvertToV2 returns the autoscaling/v2 form of in, which it does not
// modify: the CPU target becomes a Resource metric, and the round-trip
// annotations become metrics, behavior, current metrics and conditions
// again (one that does not decode is dropped, as upstream does). An
// autoscaler with no metric at all gets the 80% CPU target v1 always
// implied.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/v1
// (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler).
func ConvertToV2(in *HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscaler {
	// A copy, so that out shares nothing with the caller's object and the
	// conversions below may share pointers with it.
	in = in.DeepCopy()
	out := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: in.ObjectMeta}
	out.APIVersion, out.Kind = autoscalingv2.SchemeGroupVersion.String(), "HorizontalPodAutoscaler"
	spec := &out.Spec
	spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference(in.Spec.ScaleTargetRef)
	spec.MinReplicas = copyPtr(in.Spec.MinReplicas)
	spec.MaxReplicas = in.Spec.MaxReplicas
	var cpu []autoscalingv2.MetricSpec
	if in.Spec.TargetCPUUtilizationPercentage != nil {
		cpu = []autoscalingv2.MetricSpec{cpuUtilization(*in.Spec.TargetCPUUtilizationPercentage)}
	}
	spec.Metrics = cpu
	annotations := out.Annotations
	if enc, ok := annotations[MetricSpecsAnnotation]; ok {
		var others []MetricSpec
		if json.Unmarshal([]byte(enc), &others) == nil {
			spec.Metrics = make([]autoscalingv2.MetricSpec, 0, len(others)+len(cpu))
			for i := range others {
				spec.Metrics = append(spec.Metrics, metricSpecToV2(&others[i]))
			}
			spec.Metrics = append(spec.Metrics, cpu...)
		}
	}
	if enc, ok := annotations[BehaviorSpecsAnnotation]; ok {
		var b behaviorAnnotation
		if json.Unmarshal([]byte(enc), &b) == nil && (b.ScaleUp != nil || b.ScaleDown != nil) {
			spec.Behavior = b.toV2()
		}
	}
	status := &out.Status
	status.ObservedGeneration = copyPtr(in.Status.ObservedGeneration)
	if in.Status.LastScaleTime != nil {
		t := *in.Status.LastScaleTime
		status.LastScaleTime = &t
	}
	status.CurrentReplicas, status.DesiredReplicas = in.Status.CurrentReplicas, in.Status.DesiredReplicas
	if in.Status.CurrentCPUUtilizationPercentage != nil {
		status.CurrentMetrics = []autoscalingv2.MetricStatus{{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{
				AverageUtilization: copyPtr(in.Status.CurrentCPUUtilizationPercentage),
			}},
		}}
	}
	if enc, ok := annotations[MetricStatusesAnnotation]; ok {
		// The annotation has more than currentCPUUtilizationPercentage: the
		// raw values too.
		var current []MetricStatus
		if json.Unmarshal([]byte(enc), &current) == nil {
			status.CurrentMetrics = make([]autoscalingv2.MetricStatus, len(current))
			for i := range current {
				status.CurrentMetrics[i] = metricStatusToV2(&current[i])
			}
		}
	}
	if len(spec.Metrics) == 0 {
		spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(autoscalingv2.DefaultCPUUtilization)}
	}
	if enc, ok := annotations[ConditionsAnnotation]; ok {
		var conditions []HorizontalPodAutoscalerCondition
		if json.Unmarshal([]byte(enc), &conditions) == nil {
			status.Conditions = make([]autoscalingv2.HorizontalPodAutoscalerCondition, len(conditions))
			for i, c := range conditions {
				status.Conditions[i] = autoscalingv2.HorizontalPodAutoscalerCondition{
					Type: autoscalingv2.HorizontalPodAutoscalerConditionType(c.Type), Status: c.Status,
					LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
					ObservedGeneration: copyPtr(c.ObservedGeneration),
				}
			}
		}
	}
	out.Annotations = dropRoundTripAnnotations(annotations)
	return out
}

// ConvertFromV2 returns the autoscaling/v1 form of in, which it does not
// modify: the first CPU utilization target becomes
// targetCPUUtilizationPercentage, and every other metric, the behavior,
// the current metrics and the conditions go into the round-trip
// annotations, replacing any a client wrote.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/v1
// (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler).
func ConvertFromV2(in *autoscalingv2.HorizontalPodAutoscaler) *HorizontalPodAutoscaler {
	// A copy, so that out shares nothing with the caller's object and the
	// conversions below may share pointers with it.
	in = in.DeepCopy()
	out := &HorizontalPodAutoscaler{ObjectMeta: in.ObjectMeta}
	out.APIVersion, out.Kind = SchemeGroupVersion.String(), "HorizontalPodAutoscaler"
	out.Annotations = dropRoundTripAnnotations(out.Annotations)
	spec := &out.Spec
	spec.ScaleTargetRef = CrossVersionObjectReference(in.Spec.ScaleTargetRef)
	spec.MinReplicas = copyPtr(in.Spec.MinReplicas)
	spec.MaxReplicas = in.Spec.MaxReplicas
	var others []MetricSpec
	cpuSeen := false
	for i := range in.Spec.Metrics {
		m := &in.Spec.Metrics[i]
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == corev1.ResourceCPU &&
			m.Resource.Target.AverageUtilization != nil {
			// The first CPU metric is the v1 target; upstream's spec
			// conversion stops there too.
			if !cpuSeen {
				spec.TargetCPUUtilizationPercentage = copyPtr(m.Resource.Target.AverageUtilization)
			}
			cpuSeen = true
			continue
		}
		others = append(others, metricSpecFromV2(m))
	}
	status := &out.Status
	status.ObservedGeneration = copyPtr(in.Status.ObservedGeneration)
	if in.Status.LastScaleTime != nil {
		t := *in.Status.LastScaleTime
		status.LastScaleTime = &t
	}
	status.CurrentReplicas, status.DesiredReplicas = in.Status.CurrentReplicas, in.Status.DesiredReplicas
	current := make([]MetricStatus, len(in.Status.CurrentMetrics))
	for i := range in.Status.CurrentMetrics {
		m := &in.Status.CurrentMetrics[i]
		current[i] = metricStatusFromV2(m)
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == corev1.ResourceCPU &&
			m.Resource.Current.AverageUtilization != nil {
			status.CurrentCPUUtilizationPercentage = copyPtr(m.Resource.Current.AverageUtilization)
		}
	}
	set := func(key string, v any) {
		// The values are plain data: Marshal cannot fail on them.
		enc, _ := json.Marshal(v)
		if out.Annotations == nil {
			out.Annotations = map[string]string{}
		}
		out.Annotations[key] = string(enc)
	}
	if len(others) > 0 {
		set(MetricSpecsAnnotation, others)
	}
	if len(current) > 0 {
		set(MetricStatusesAnnotation, current)
	}
	if in.Spec.Behavior != nil {
		set(BehaviorSpecsAnnotation, behaviorFromV2(in.Spec.Behavior))
	}
	if len(in.Status.Conditions) > 0 {
		conditions := make([]HorizontalPodAutoscalerCondition, len(in.Status.Conditions))
		for i, c := range in.Status.Conditions {
			conditions[i] = HorizontalPodAutoscalerCondition{
				Type: HorizontalPodAutoscalerConditionType(c.Type), Status: c.Status,
				LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
				ObservedGeneration: copyPtr(c.ObservedGeneration),
			}
		}
		set(ConditionsAnnotation, conditions)
	}
	return out
}

// dropRoundTripAnnotations returns annotations without the round-trip
// ones, copying the map only when it has some.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling
// (DropRoundTripHorizontalPodAutoscalerAnnotations).
func dropRoundTripAnnotations(annotations map[string]string) map[string]string {
	copied := false
	for _, key := range roundTripAnnotations {
		if _, ok := annotations[key]; !ok {
			continue
		}
		if !copied {
			annotations, copied = maps.Clone(annotations), true
		}
		delete(annotations, key)
	}
	return annotations
}

func cpuUtilization(percent int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{
		Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{
			Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &percent,
		}},
	}
}

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func quantity(q *resource.Quantity) resource.Quantity {
	if q == nil {
		return resource.Quantity{}
	}
	return *q
}
