package apiserver

import (
	"fmt"

	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/autoscaling"
)

// installAutoscalingResources installs horizontalpodautoscalers at
// autoscaling/v2, the version they are stored at, and at autoscaling/v1,
// whose store converts every read and write (autoscaling.V1Converter):
// two served versions of one resource over the same etcd keys, as a
// custom resource's versions are. Discovery prefers v2. No controller
// scales anything: the API alone.
func (s *Server) installAutoscalingResources() error {
	strategy := autoscaling.HorizontalPodAutoscalerStrategy{}
	status := map[string]registry.Strategy{"status": autoscaling.HorizontalPodAutoscalerStatusStrategy{}}
	for _, r := range []Resource{
		{Info: autoscalingv2.Resource(), Strategy: strategy, UpdateSubresources: status, Tables: autoscaling.HorizontalPodAutoscalerTable},
		{Info: autoscalingv1.Resource(), Strategy: strategy, UpdateSubresources: status, Tables: autoscaling.HorizontalPodAutoscalerTable,
			Converter: autoscaling.V1Converter{}},
	} {
		info, ok := s.scheme.Resource(r.Info.GVR)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", r.Info.GVR)
		}
		r.Info = info
		if err := s.InstallResource(r); err != nil {
			return err
		}
	}
	return nil
}
