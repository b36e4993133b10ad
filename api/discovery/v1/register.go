package v1

import "github.com/minicp/minicp/api/runtime"

// GroupName is the API group of this package.
const GroupName = "discovery.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers EndpointSlice and its resource as Kubernetes
// discovery reports it: no short names, no categories.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &EndpointSlice{}, &EndpointSliceList{})
	return s.AddResource(runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("endpointslices"), Kind: "EndpointSlice", SingularName: "endpointslice",
		Namespaced: true, Verbs: append([]string(nil), runtime.AllVerbs...),
	})
}
