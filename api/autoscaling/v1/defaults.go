package v1

import "github.com/minicp/minicp/api/runtime"

// SetDefaults fills the fields the API server defaults when it decodes an
// autoscaling/v1 HorizontalPodAutoscaler, in place: minReplicas 1. The
// 80% CPU target of an autoscaler without one is not a v1 default: the
// conversion to v2 adds it (ConvertToV2). Other kinds are left alone;
// lists default each item.
//
// Upstream: k8s.io/kubernetes/pkg/apis/autoscaling/v1/defaults.go.
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
	if hpa.Spec.MinReplicas == nil {
		one := int32(1)
		hpa.Spec.MinReplicas = &one
	}
}
