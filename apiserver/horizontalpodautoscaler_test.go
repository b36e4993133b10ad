package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
)

const (
	hpaV1Path = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers"
	hpaV2Path = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers"
)

// TestHorizontalPodAutoscalerVersions writes one autoscaler at each
// version and reads it at the other: v1 and v2 are two views of one
// stored object, v1 keeping what it cannot express in annotations.
func TestHorizontalPodAutoscalerVersions(t *testing.T) {
	s := newTestServer(t)

	// Written at v1 (what `kubectl autoscale` sends), read at v2.
	v1 := decode[autoscalingv1.HorizontalPodAutoscaler](t, s.mustDo(http.StatusCreated, "POST", hpaV1Path,
		`{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},
		  "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":3,"targetCPUUtilizationPercentage":50}}`))
	assert.Equal(t, "autoscaling/v1", v1.APIVersion)
	assert.Equal(t, int32(1), *v1.Spec.MinReplicas, "defaulted")
	assert.Equal(t, int32(50), *v1.Spec.TargetCPUUtilizationPercentage)
	assert.Empty(t, v1.Annotations, "a CPU target needs no annotation")
	v2 := decode[autoscalingv2.HorizontalPodAutoscaler](t, s.mustDo(http.StatusOK, "GET", hpaV2Path+"/web", ""))
	assert.Equal(t, "autoscaling/v2", v2.APIVersion)
	assert.Equal(t, v1.ResourceVersion, v2.ResourceVersion, "one stored object")
	assert.Equal(t, v1.UID, v2.UID)
	require.Len(t, v2.Spec.Metrics, 1)
	assert.Equal(t, corev1.ResourceCPU, v2.Spec.Metrics[0].Resource.Name)
	assert.Equal(t, autoscalingv2.UtilizationMetricType, v2.Spec.Metrics[0].Resource.Target.Type)
	assert.Equal(t, int32(50), *v2.Spec.Metrics[0].Resource.Target.AverageUtilization)

	// Written at v2 with what v1 cannot express, read at v1: the extra
	// travels in annotations, and a v1 write-back keeps it.
	v2.Spec.Metrics = append(v2.Spec.Metrics, autoscalingv2.MetricSpec{
		Type: autoscalingv2.PodsMetricSourceType,
		Pods: &autoscalingv2.PodsMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: "qps"},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptrTo(resource.MustParse("10"))},
		},
	})
	v2.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptrTo(int32(60))}}
	body, _ := json.Marshal(v2)
	v2 = decode[autoscalingv2.HorizontalPodAutoscaler](t, s.mustDo(http.StatusOK, "PUT", hpaV2Path+"/web", string(body)))
	require.NotNil(t, v2.Spec.Behavior.ScaleUp, "behavior defaulted")
	assert.Equal(t, int32(60), *v2.Spec.Behavior.ScaleDown.StabilizationWindowSeconds)

	v1 = decode[autoscalingv1.HorizontalPodAutoscaler](t, s.mustDo(http.StatusOK, "GET", hpaV1Path+"/web", ""))
	assert.Equal(t, int32(50), *v1.Spec.TargetCPUUtilizationPercentage)
	assert.JSONEq(t, `[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]`, v1.Annotations[autoscalingv1.MetricSpecsAnnotation])
	assert.Contains(t, v1.Annotations[autoscalingv1.BehaviorSpecsAnnotation], `"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max"`,
		"the behavior annotation has upstream's internal field names")

	v1.Spec.MaxReplicas = 5
	body, _ = json.Marshal(v1)
	v1 = decode[autoscalingv1.HorizontalPodAutoscaler](t, s.mustDo(http.StatusOK, "PUT", hpaV1Path+"/web", string(body)))
	assert.Equal(t, int32(5), v1.Spec.MaxReplicas)
	v2 = decode[autoscalingv2.HorizontalPodAutoscaler](t, s.mustDo(http.StatusOK, "GET", hpaV2Path+"/web", ""))
	assert.Equal(t, int32(5), v2.Spec.MaxReplicas)
	require.Len(t, v2.Spec.Metrics, 2, "the v1 round trip kept the pods metric")
	assert.Equal(t, autoscalingv2.PodsMetricSourceType, v2.Spec.Metrics[0].Type)
	assert.Equal(t, int32(60), *v2.Spec.Behavior.ScaleDown.StabilizationWindowSeconds)
	assert.Empty(t, v2.Annotations, "v2 has no round-trip annotations")

	// Status written at v2 shows at v1 as currentCPUUtilizationPercentage
	// and the conditions annotation.
	v2.Status = autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 2, DesiredReplicas: 2,
		CurrentMetrics: []autoscalingv2.MetricStatus{{Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageUtilization: ptrTo(int32(42))}}}},
		Conditions: []autoscalingv2.HorizontalPodAutoscalerCondition{{Type: autoscalingv2.AbleToScale, Status: corev1.ConditionTrue}},
	}
	body, _ = json.Marshal(v2)
	s.mustDo(http.StatusOK, "PUT", hpaV2Path+"/web/status", string(body))
	v1 = decode[autoscalingv1.HorizontalPodAutoscaler](t, s.mustDo(http.StatusOK, "GET", hpaV1Path+"/web", ""))
	assert.Equal(t, int32(42), *v1.Status.CurrentCPUUtilizationPercentage)
	assert.Equal(t, int32(2), v1.Status.CurrentReplicas)
	assert.Contains(t, v1.Annotations[autoscalingv1.ConditionsAnnotation], `"type":"AbleToScale"`)

	// Both versions list the same objects and print the same table.
	for _, p := range []string{hpaV1Path, hpaV2Path} {
		table := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", p, "", withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
		var columns []string
		for _, c := range table.ColumnDefinitions {
			columns = append(columns, c.Name)
		}
		assert.Equal(t, []string{"Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"}, columns, "GET %s", p)
		require.Len(t, table.Rows, 1, "GET %s", p)
		// The v1 round trip put the CPU target last, as upstream's does, and
		// the printer pairs metrics with current values by index.
		assert.Equal(t, []any{"web", "Deployment/web", "<unknown>/10, cpu: <unknown>/50%", "1", float64(5), float64(2)}, table.Rows[0].Cells[:6], "GET %s", p)
	}
}

func TestHorizontalPodAutoscalerValidation(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name, path, body, want string
	}{
		{"v1 maxReplicas", hpaV1Path, `{"metadata":{"name":"a"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":0}}`,
			"spec.maxReplicas: Invalid value: 0: must be greater than 0"},
		{"v1 target is validated as its v2 form", hpaV1Path, `{"metadata":{"name":"a"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":2,"targetCPUUtilizationPercentage":0}}`,
			"spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"},
		{"v2 min above max", hpaV2Path, `{"metadata":{"name":"a"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"minReplicas":4,"maxReplicas":2}}`,
			"spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`"},
		{"v2 missing target", hpaV2Path, `{"metadata":{"name":"a"},"spec":{"scaleTargetRef":{"name":"web"},"maxReplicas":2}}`,
			"spec.scaleTargetRef.kind: Required value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.mustDo(http.StatusUnprocessableEntity, "POST", tc.path, tc.body)
			assert.Contains(t, r.status(t).Message, tc.want, "POST %s", tc.body)
		})
	}
}
