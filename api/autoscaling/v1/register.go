package v1

import "github.com/minicp/minicp/api/runtime"

// GroupName is the API group of this package.
const GroupName = "autoscaling"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers Scale under SchemeGroupVersion, so scale
// subresource bodies decode and encode with their kind. It registers no
// resource: Scale is served only as a subresource of scalable resources.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Scale{})
	return nil
}
