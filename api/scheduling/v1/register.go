package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "scheduling.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// Resource returns the priorityclasses resource as discovery reports it:
// cluster-scoped, short name pc.
func Resource() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("priorityclasses"), Kind: "PriorityClass",
		SingularName: "priorityclass", Verbs: append([]string(nil), runtime.AllVerbs...),
		ShortNames: []string{"pc"},
	}
}

// AddToScheme registers PriorityClass with its list and resource.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &PriorityClass{}, &PriorityClassList{})
	if err := s.AddResource(Resource()); err != nil {
		return fmt.Errorf("register %s: %w", Resource().GVR, err)
	}
	return nil
}
