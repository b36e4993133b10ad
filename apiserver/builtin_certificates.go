package apiserver

import (
	"fmt"

	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/certificates"
)

// installCertificatesResources installs certificates.k8s.io's
// certificatesigningrequests with their approval and status
// subresources. No signer issues certificates: the API alone, enough for
// `kubectl certificate approve|deny` and clients that approve requests.
func (s *Server) installCertificatesResources() error {
	gvr := certificatesv1.Resource().GVR
	info, ok := s.scheme.Resource(gvr)
	if !ok {
		return fmt.Errorf("apiserver: the scheme has no resource %s", gvr)
	}
	return s.InstallResource(Resource{
		Info: info, Strategy: certificates.Strategy{}, Tables: certificates.Table,
		UpdateSubresources: map[string]registry.Strategy{
			"approval": certificates.ApprovalStrategy{Clock: s.clock},
			"status":   certificates.StatusStrategy{Clock: s.clock},
		},
	})
}
