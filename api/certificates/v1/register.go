package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "certificates.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// Resource returns the certificatesigningrequests resource as discovery
// reports it: cluster-scoped, with the approval and status subresources.
func Resource() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("certificatesigningrequests"), Kind: "CertificateSigningRequest",
		SingularName: "certificatesigningrequest",
		Verbs:        append([]string(nil), runtime.AllVerbs...), ShortNames: []string{"csr"},
		Subresources: []string{"approval", "status"},
	}
}

// AddToScheme registers CertificateSigningRequest and its list under
// SchemeGroupVersion, and their resource.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &CertificateSigningRequest{}, &CertificateSigningRequestList{})
	if err := s.AddResource(Resource()); err != nil {
		return fmt.Errorf("register %s: %w", Resource().GVR, err)
	}
	return nil
}
