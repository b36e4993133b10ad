package v1

import (
	"fmt"

	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "autoscaling"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// Resource returns the horizontalpodautoscalers resource as discovery
// reports it at /apis/autoscaling/v1: autoscalingv2's, the storage
// version, at v1.
func Resource() runtime.ResourceInfo {
	info := autoscalingv2.Resource()
	info.GVR.Version = SchemeGroupVersion.Version
	return info
}

// AddToScheme registers Scale, so scale subresource bodies decode and
// encode with their kind, and HorizontalPodAutoscaler with its list and
// resource.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Scale{}, &HorizontalPodAutoscaler{}, &HorizontalPodAutoscalerList{})
	if err := s.AddResource(Resource()); err != nil {
		return fmt.Errorf("register %s: %w", Resource().GVR, err)
	}
	return nil
}
