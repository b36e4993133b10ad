package protobuf

import (
	"reflect"
	"testing"

	kruntime "k8s.io/apimachinery/pkg/runtime"
	kmetricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
)

// metricsCases are NodeMetrics and PodMetrics with their lists, filled:
// the resource metrics API's kinds, whose Kubernetes twins live in
// k8s.io/metrics rather than k8s.io/api. They have no golden files.
func metricsCases() []compatCase {
	const gv = "metrics.k8s.io/v1beta1"
	return []compatCase{
		{name: "NodeMetrics-filled", minicp: withTypeMeta(fill(&metricsv1beta1.NodeMetrics{}), gv, "NodeMetrics"),
			k8s: func() kruntime.Object { return &kmetricsv1beta1.NodeMetrics{} }, noGolden: true},
		{name: "NodeMetricsList-filled", minicp: withTypeMeta(fill(&metricsv1beta1.NodeMetricsList{}), gv, "NodeMetricsList"),
			k8s: func() kruntime.Object { return &kmetricsv1beta1.NodeMetricsList{} }, noGolden: true},
		{name: "PodMetrics-filled", minicp: withTypeMeta(fill(&metricsv1beta1.PodMetrics{}), gv, "PodMetrics"),
			k8s: func() kruntime.Object { return &kmetricsv1beta1.PodMetrics{} }, noGolden: true},
		{name: "PodMetricsList-filled", minicp: withTypeMeta(fill(&metricsv1beta1.PodMetricsList{}), gv, "PodMetricsList"),
			k8s: func() kruntime.Object { return &kmetricsv1beta1.PodMetricsList{} }, noGolden: true},
	}
}

// TestMetricsTagsMatchKubernetes walks the metrics kinds beside
// k8s.io/metrics' as TestTagsMatchKubernetes walks k8s.io/api's.
func TestMetricsTagsMatchKubernetes(t *testing.T) {
	w := tagWalker{t: t, seen: map[reflect.Type]bool{}}
	w.walk(reflect.TypeFor[metricsv1beta1.NodeMetricsList](), reflect.TypeFor[kmetricsv1beta1.NodeMetricsList](), "NodeMetricsList")
	w.walk(reflect.TypeFor[metricsv1beta1.PodMetricsList](), reflect.TypeFor[kmetricsv1beta1.PodMetricsList](), "PodMetricsList")
	if w.fields < 10 {
		t.Errorf("checked only %d fields; the walk is missing types", w.fields)
	}
}
