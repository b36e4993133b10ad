package metrics

import (
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/printers"
)

// usageColumns are the columns of `kubectl get nodemetrics,podmetrics`
// after the name, as metrics-server prints them: each resource's usage,
// then the window.
var usageColumns = []metav1.TableColumnDefinition{
	{Name: "cpu", Type: "string", Format: "quantity"},
	{Name: "memory", Type: "string", Format: "quantity"},
	{Name: "Window", Type: "string", Format: "duration"},
}

// NodeMetricsTable prints NodeMetrics as metrics-server does.
//
// Upstream: sigs.k8s.io/metrics-server/pkg/api (addNodeMetricsToTable).
var NodeMetricsTable = printers.Printer{
	Columns: append([]metav1.TableColumnDefinition{printers.NameColumn}, usageColumns...),
	Cells: func(obj runtime.Object, _ time.Time) []any {
		m := obj.(*metricsv1beta1.NodeMetrics)
		return usageCells(m.Name, m.Usage, m.Window)
	},
}

// PodMetricsTable prints PodMetrics as metrics-server does: the pod's
// usage is the sum of its containers'.
//
// Upstream: sigs.k8s.io/metrics-server/pkg/api (addPodMetricsToTable).
var PodMetricsTable = printers.Printer{
	Columns: append([]metav1.TableColumnDefinition{printers.NameColumn}, usageColumns...),
	Cells: func(obj runtime.Object, _ time.Time) []any {
		m := obj.(*metricsv1beta1.PodMetrics)
		total := corev1.ResourceList{}
		for _, c := range m.Containers {
			for name, q := range c.Usage {
				sum := total[name]
				sum.Add(q)
				total[name] = sum
			}
		}
		return usageCells(m.Name, total, m.Window)
	},
}

func usageCells(name string, usage corev1.ResourceList, window metav1.Duration) []any {
	cell := func(r corev1.ResourceName) string {
		q := usage[r] // a missing one is 0
		return q.String()
	}
	return []any{name, cell(corev1.ResourceCPU), cell(corev1.ResourceMemory), window.Duration.String()}
}
