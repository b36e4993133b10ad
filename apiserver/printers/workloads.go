package printers

import (
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// ContainerCells are the Containers and Images cells of a workload's wide
// row: the template's container names and images, comma-separated.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (layoutContainerCells).
func ContainerCells(containers []corev1.Container) (names, images string) {
	n := make([]string, len(containers))
	im := make([]string, len(containers))
	for i, c := range containers {
		n[i], im[i] = c.Name, c.Image
	}
	return strings.Join(n, ","), strings.Join(im, ",")
}

// SelectorCell is the Selector cell of a workload's wide row: the
// selector in the form `kubectl get -l` takes, or "<invalid>".
func SelectorCell(sel *metav1.LabelSelector) string {
	s, err := labels.FromLabelSelector(sel)
	if err != nil {
		return "<invalid>"
	}
	return s.String()
}

// MapCell renders a label map (a Service's selector) as k=v pairs sorted
// by key, or "<none>".
//
// Upstream: k8s.io/apimachinery/pkg/labels (FormatLabels).
func MapCell(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	return labels.Set(m).String()
}
