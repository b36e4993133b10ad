package autoscaling

import (
	"fmt"
	"strings"
	"time"

	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/printers"
)

// HorizontalPodAutoscalerTable prints autoscalers, of either version, as
// `kubectl get hpa` does: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS
// AGE, with the targets as "cpu: <unknown>/80%" until an autoscaler
// reports the current values.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printHorizontalPodAutoscaler).
var HorizontalPodAutoscalerTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Reference", Type: "string", Description: "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count."},
		{Name: "Targets", Type: "string", Description: "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization."},
		{Name: "MinPods", Type: "string", Description: "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available."},
		{Name: "MaxPods", Type: "string", Description: "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas."},
		{Name: "Replicas", Type: "string", Description: "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler."},
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		hpa := toV2(obj)
		minPods := "<unset>"
		if hpa.Spec.MinReplicas != nil {
			minPods = fmt.Sprintf("%d", *hpa.Spec.MinReplicas)
		}
		ref := hpa.Spec.ScaleTargetRef
		return []any{hpa.Name, ref.Kind + "/" + ref.Name, formatHPAMetrics(hpa.Spec.Metrics, hpa.Status.CurrentMetrics),
			minPods, int64(hpa.Spec.MaxReplicas), int64(hpa.Status.CurrentReplicas), printers.Age(obj, now)}
	},
}

// maxPrintedMetrics is how many targets the TARGETS column shows before
// "+ N more...".
const maxPrintedMetrics = 2

// formatHPAMetrics renders each metric as current/target, the current
// value read from the status entry at the same index.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (formatHPAMetrics).
func formatHPAMetrics(specs []autoscalingv2.MetricSpec, statuses []autoscalingv2.MetricStatus) string {
	if len(specs) == 0 {
		return "<none>"
	}
	var list []string
	for i, spec := range specs {
		var st *autoscalingv2.MetricStatus
		if i < len(statuses) {
			st = &statuses[i]
		}
		list = append(list, formatHPAMetric(spec, st))
	}
	if len(list) > maxPrintedMetrics {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:maxPrintedMetrics], ", "), len(list)-maxPrintedMetrics)
	}
	return strings.Join(list, ", ")
}

func formatHPAMetric(spec autoscalingv2.MetricSpec, st *autoscalingv2.MetricStatus) string {
	const unknown = "<unknown>"
	current := unknown
	switch {
	case spec.Type == autoscalingv2.ExternalMetricSourceType && spec.External != nil:
		if spec.External.Target.AverageValue != nil {
			if st != nil && st.External != nil && st.External.Current.AverageValue != nil {
				current = st.External.Current.AverageValue.String()
			}
			return fmt.Sprintf("%s/%s (avg)", current, spec.External.Target.AverageValue.String())
		}
		if st != nil && st.External != nil {
			current = quantityString(st.External.Current.Value)
		}
		return fmt.Sprintf("%s/%s", current, quantityString(spec.External.Target.Value))
	case spec.Type == autoscalingv2.PodsMetricSourceType && spec.Pods != nil:
		if st != nil && st.Pods != nil {
			current = quantityString(st.Pods.Current.AverageValue)
		}
		return fmt.Sprintf("%s/%s", current, quantityString(spec.Pods.Target.AverageValue))
	case spec.Type == autoscalingv2.ObjectMetricSourceType && spec.Object != nil:
		if spec.Object.Target.AverageValue != nil {
			if st != nil && st.Object != nil && st.Object.Current.AverageValue != nil {
				current = st.Object.Current.AverageValue.String()
			}
			return fmt.Sprintf("%s/%s (avg)", current, spec.Object.Target.AverageValue.String())
		}
		if st != nil && st.Object != nil {
			current = quantityString(st.Object.Current.Value)
		}
		return fmt.Sprintf("%s/%s", current, quantityString(spec.Object.Target.Value))
	case spec.Type == autoscalingv2.ResourceMetricSourceType && spec.Resource != nil:
		var cur *autoscalingv2.MetricValueStatus
		if st != nil && st.Resource != nil {
			cur = &st.Resource.Current
		}
		return string(spec.Resource.Name) + ": " + formatResourceTarget(spec.Resource.Target, cur)
	case spec.Type == autoscalingv2.ContainerResourceMetricSourceType && spec.ContainerResource != nil:
		var cur *autoscalingv2.MetricValueStatus
		if st != nil && st.ContainerResource != nil {
			cur = &st.ContainerResource.Current
		}
		return string(spec.ContainerResource.Name) + ": " + formatResourceTarget(spec.ContainerResource.Target, cur)
	}
	return "<unknown type>"
}

// formatResourceTarget renders a resource metric as current/target, in
// raw values when the target is one and in percent otherwise.
func formatResourceTarget(target autoscalingv2.MetricTarget, cur *autoscalingv2.MetricValueStatus) string {
	current := "<unknown>"
	if target.AverageValue != nil {
		if cur != nil {
			current = quantityString(cur.AverageValue)
		}
		return fmt.Sprintf("%s/%s", current, target.AverageValue.String())
	}
	if cur != nil && cur.AverageUtilization != nil {
		current = fmt.Sprintf("%d%%", *cur.AverageUtilization)
	}
	want := "<auto>"
	if target.AverageUtilization != nil {
		want = fmt.Sprintf("%d%%", *target.AverageUtilization)
	}
	return fmt.Sprintf("%s/%s", current, want)
}

// quantityString is q's string form; a nil q prints as zero, as
// upstream's printer does with an unset quantity.
func quantityString(q *resource.Quantity) string {
	if q == nil {
		return resource.Quantity{}.String()
	}
	return q.String()
}
