package v2

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "autoscaling"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v2"}

// Resource returns the horizontalpodautoscalers resource as discovery
// reports it at /apis/autoscaling/v2. autoscalingv1 registers the same
// resource at v1.
func Resource() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("horizontalpodautoscalers"), Kind: "HorizontalPodAutoscaler",
		SingularName: "horizontalpodautoscaler", Namespaced: true,
		Verbs: append([]string(nil), runtime.AllVerbs...), ShortNames: []string{"hpa"}, Categories: []string{"all"},
		Subresources: []string{"status"},
	}
}

// AddToScheme registers HorizontalPodAutoscaler and its list under
// SchemeGroupVersion, and their resource.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &HorizontalPodAutoscaler{}, &HorizontalPodAutoscalerList{})
	if err := s.AddResource(Resource()); err != nil {
		return fmt.Errorf("register %s: %w", Resource().GVR, err)
	}
	return nil
}
