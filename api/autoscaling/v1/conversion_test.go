package v1

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
)

func ptrTo[T any](v T) *T { return &v }

// TestConvertRoundTrip converts a v2 autoscaler using every metric
// source, behavior and conditions to v1 and back: nothing is lost, and
// the CPU utilization target moves to the end, as upstream's does.
func TestConvertRoundTrip(t *testing.T) {
	ten := resource.MustParse("10")
	in := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Annotations: map[string]string{"note": "kept"}},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MinReplicas:    ptrTo(int32(2)), MaxReplicas: 9,
			Metrics: []autoscalingv2.MetricSpec{
				{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
					DescribedObject: autoscalingv2.CrossVersionObjectReference{Kind: "Service", Name: "web"},
					Metric:          autoscalingv2.MetricIdentifier{Name: "rps"},
					Target:          autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: &ten},
				}},
				{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
					Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
					Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &ten},
				}},
				{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
					Name: corev1.ResourceMemory, Container: "app",
					Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptrTo(int32(70))},
				}},
				{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
					Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptrTo(int32(60))},
				}},
			},
			Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: autoscalingv2.DefaultScaleUpRules()},
		},
		Status: autoscalingv2.HorizontalPodAutoscalerStatus{
			CurrentReplicas: 3, DesiredReplicas: 4,
			CurrentMetrics: []autoscalingv2.MetricStatus{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{
				Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageValue: &ten, AverageUtilization: ptrTo(int32(55))},
			}}},
			Conditions: []autoscalingv2.HorizontalPodAutoscalerCondition{{Type: autoscalingv2.ScalingActive, Status: corev1.ConditionTrue, Reason: "ValidMetricFound"}},
		},
	}

	v1 := ConvertFromV2(in)
	assert.Equal(t, "autoscaling/v1", v1.APIVersion)
	assert.Equal(t, int32(60), *v1.Spec.TargetCPUUtilizationPercentage)
	assert.Equal(t, int32(55), *v1.Status.CurrentCPUUtilizationPercentage)
	for _, key := range []string{MetricSpecsAnnotation, MetricStatusesAnnotation, ConditionsAnnotation, BehaviorSpecsAnnotation} {
		assert.Contains(t, v1.Annotations, key)
	}
	assert.Equal(t, "kept", v1.Annotations["note"])
	assert.Len(t, in.Annotations, 1, "the input is not modified")
	assert.JSONEq(t, `{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":null}`,
		v1.Annotations[BehaviorSpecsAnnotation], "upstream's internal form")

	back := ConvertToV2(v1)
	assert.Equal(t, map[string]string{"note": "kept"}, back.Annotations, "the round-trip annotations are gone")
	require.Len(t, back.Spec.Metrics, 4)
	assert.Equal(t, in.Spec.Metrics, back.Spec.Metrics)
	assert.Equal(t, in.Spec.Behavior, back.Spec.Behavior)
	assert.Equal(t, in.Status.Conditions, back.Status.Conditions)
	assert.Equal(t, in.Status.CurrentMetrics, back.Status.CurrentMetrics)
	assert.Equal(t, in.Spec.MinReplicas, back.Spec.MinReplicas)
}

// TestConvertToV2DefaultsCPU checks the target v1 implies: 80% CPU when
// the autoscaler names none, and a bad annotation is dropped, not an
// error.
func TestConvertToV2DefaultsCPU(t *testing.T) {
	v2 := ConvertToV2(&HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: map[string]string{MetricSpecsAnnotation: "not json"}},
		Spec:       HorizontalPodAutoscalerSpec{MaxReplicas: 3},
	})
	require.Len(t, v2.Spec.Metrics, 1)
	assert.Equal(t, int32(80), *v2.Spec.Metrics[0].Resource.Target.AverageUtilization)
	assert.Empty(t, v2.Annotations)
}
