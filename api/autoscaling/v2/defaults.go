package v2

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// DefaultCPUUtilization is the average CPU utilization, in percent, that
// an autoscaler with no metrics keeps its target at.
const DefaultCPUUtilization int32 = 80

// SetDefaults fills the fields the API server defaults when it decodes a
// HorizontalPodAutoscaler, in place: minReplicas 1; an 80% average CPU
// utilization metric when there is none; and, when behavior is set, the
// missing parts of its rules (scale up: no stabilization, the larger of 4
// pods or 100% per 15s; scale down: 100% per 15s, both selecting Max).
// Other kinds are left alone; lists default each item.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/v2/defaults.go.
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *HorizontalPodAutoscaler:
		setDefaultsHPA(o)
	case *HorizontalPodAutoscalerList:
		for i := range o.Items {
			setDefaultsHPA(&o.Items[i])
		}
	}
}

func setDefaultsHPA(hpa *HorizontalPodAutoscaler) {
	spec := &hpa.Spec
	if spec.MinReplicas == nil {
		spec.MinReplicas = ptrTo(int32(1))
	}
	if len(spec.Metrics) == 0 {
		spec.Metrics = []MetricSpec{{
			Type: ResourceMetricSourceType,
			Resource: &ResourceMetricSource{Name: corev1.ResourceCPU, Target: MetricTarget{
				Type: UtilizationMetricType, AverageUtilization: ptrTo(DefaultCPUUtilization),
			}},
		}}
	}
	if b := spec.Behavior; b != nil {
		b.ScaleUp = defaultRules(b.ScaleUp, DefaultScaleUpRules())
		b.ScaleDown = defaultRules(b.ScaleDown, DefaultScaleDownRules())
	}
}

// DefaultScaleUpRules are the scale-up rules of an autoscaler that sets
// none, as the controller applied them before behavior existed: no
// stabilization window, and per 15 seconds at most 4 pods or 100%,
// whichever is more.
func DefaultScaleUpRules() *HPAScalingRules {
	maxPolicy := MaxChangePolicySelect
	return &HPAScalingRules{
		StabilizationWindowSeconds: ptrTo(int32(0)),
		SelectPolicy:               &maxPolicy,
		Policies: []HPAScalingPolicy{
			{Type: PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// DefaultScaleDownRules are the scale-down rules of an autoscaler that
// sets none: at most 100% per 15 seconds. The stabilization window stays
// unset: it is the controller's --horizontal-pod-autoscaler-downscale-stabilization.
func DefaultScaleDownRules() *HPAScalingRules {
	maxPolicy := MaxChangePolicySelect
	return &HPAScalingRules{
		SelectPolicy: &maxPolicy,
		Policies:     []HPAScalingPolicy{{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15}},
	}
}

// defaultRules fills what rules leave unset from defaults, or returns
// defaults when rules is nil.
func defaultRules(rules, defaults *HPAScalingRules) *HPAScalingRules {
	if rules == nil {
		return defaults
	}
	if rules.StabilizationWindowSeconds == nil {
		rules.StabilizationWindowSeconds = defaults.StabilizationWindowSeconds
	}
	if rules.SelectPolicy == nil {
		rules.SelectPolicy = defaults.SelectPolicy
	}
	if rules.Policies == nil {
		rules.Policies = defaults.Policies
	}
	return rules
}

func ptrTo[T any](v T) *T { return &v }
