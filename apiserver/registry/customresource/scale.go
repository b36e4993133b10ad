package customresource

import (
	"fmt"
	"math"

	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
)

// ScaleSubresource returns the scale subresource of a CRD version whose
// scale maps desired replicas to specReplicasPath, observed replicas to
// statusReplicasPath and the pods' selector to labelSelectorPath (which
// may be empty), each a simple JSON path such as ".spec.replicas".
// Missing values read as 0 and "".
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource (ScaleREST).
func ScaleSubresource(specReplicasPath, statusReplicasPath, labelSelectorPath string) registry.ScaleSubresource {
	spec, status := splitPath(specReplicasPath), splitPath(statusReplicasPath)
	return registry.ScaleSubresource{
		SpecReplicas: func(obj runtime.Object) int32 {
			return replicasAt(obj.(*unstructured.Unstructured).Content, spec)
		},
		SetSpecReplicas: func(obj runtime.Object, replicas int32) {
			u := obj.(*unstructured.Unstructured)
			if u.Content == nil {
				u.Content = map[string]any{}
			}
			unstructured.SetNestedField(u.Content, int64(replicas), spec...)
		},
		StatusReplicas: func(obj runtime.Object) int32 {
			return replicasAt(obj.(*unstructured.Unstructured).Content, status)
		},
		Selector: func(obj runtime.Object) (string, error) {
			if labelSelectorPath == "" {
				return "", nil
			}
			s, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Content, splitPath(labelSelectorPath)...)
			if s == "" {
				return "", nil
			}
			// The path holds a selector in its string form, as a
			// controller writes status.selector for HPAs.
			if _, err := labels.Parse(s); err != nil {
				return "", fmt.Errorf("invalid label selector %q: %w", s, err)
			}
			return s, nil
		},
	}
}

// replicasAt reads an integer replica count, clamped to int32.
func replicasAt(content map[string]any, path []string) int32 {
	n, ok := unstructured.NestedInt64(content, path...)
	if !ok {
		return 0
	}
	return int32(max(min(n, math.MaxInt32), 0))
}
