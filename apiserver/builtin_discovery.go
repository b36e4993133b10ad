package apiserver

import (
	"fmt"

	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	"github.com/minicp/minicp/apiserver/registry/discovery"
)

// installDiscoveryResources installs discovery.k8s.io's endpointslices,
// with the ResourceInfo the Scheme has for them.
func (s *Server) installDiscoveryResources() error {
	gvr := discoveryv1.SchemeGroupVersion.WithResource("endpointslices")
	info, ok := s.scheme.Resource(gvr)
	if !ok {
		return fmt.Errorf("apiserver: the scheme has no resource %s", gvr)
	}
	return s.InstallResource(Resource{Info: info, Strategy: discovery.EndpointSliceStrategy{}, Tables: discovery.EndpointSliceTable})
}
