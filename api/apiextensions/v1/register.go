package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "apiextensions.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// resources returns the resources of this package as Kubernetes discovery
// reports them at /apis/apiextensions.k8s.io/v1. Each call returns fresh
// slices.
func resources() []runtime.ResourceInfo {
	return []runtime.ResourceInfo{{
		GVR:          SchemeGroupVersion.WithResource("customresourcedefinitions"),
		Kind:         "CustomResourceDefinition",
		SingularName: "customresourcedefinition",
		Namespaced:   false,
		Verbs:        append([]string(nil), runtime.AllVerbs...),
		ShortNames:   []string{"crd", "crds"},
		Categories:   []string{"api-extensions"},
		Subresources: []string{"status"},
	}}
}

// AddToScheme registers CustomResourceDefinition and its list under
// SchemeGroupVersion, then the cluster-scoped resource
// customresourcedefinitions with the short names, category and status
// subresource Kubernetes discovery reports. Calling it again is harmless.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &CustomResourceDefinition{}, &CustomResourceDefinitionList{})
	for _, info := range resources() {
		if err := s.AddResource(info); err != nil {
			return fmt.Errorf("register %s: %w", info.GVR, err)
		}
	}
	return nil
}
