package v1

import "github.com/minicp/minicp/api/runtime"

// GroupName is the API group of this package.
const GroupName = "batch"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers Job and JobList under SchemeGroupVersion, then the
// jobs resource as Kubernetes discovery reports it at /apis/batch/v1.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Job{}, &JobList{})
	return s.AddResource(runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("jobs"), Kind: "Job", SingularName: "job", Namespaced: true,
		Verbs: append([]string(nil), runtime.AllVerbs...), Categories: []string{"all"},
		Subresources: []string{"status"},
	})
}
