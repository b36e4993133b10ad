package apiserver

import (
	"fmt"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/apiextensions"
)

var gvrCRDs = apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions")

// installAPIExtensionsResources installs customresourcedefinitions, with
// its status subresource. Start's CRD controller serves what they define.
func (s *Server) installAPIExtensionsResources() error {
	info, ok := s.scheme.Resource(gvrCRDs)
	if !ok {
		return fmt.Errorf("apiserver: the scheme has no resource %s", gvrCRDs)
	}
	strategy := apiextensions.Strategy{Clock: s.clock}
	return s.InstallResource(Resource{
		Info: info, Strategy: strategy,
		UpdateSubresources: map[string]registry.Strategy{"status": apiextensions.StatusStrategy{Strategy: strategy}},
	})
}
