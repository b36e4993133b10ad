package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "apps"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// resources returns the resources of this package as Kubernetes discovery
// reports them at /apis/apps/v1, with the subresources minicp serves (the
// scale subresource's kind is autoscaling/v1 Scale). Each call returns
// fresh slices.
func resources() []runtime.ResourceInfo {
	gv := SchemeGroupVersion
	return []runtime.ResourceInfo{
		{
			GVR: gv.WithResource("deployments"), Kind: "Deployment", SingularName: "deployment", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"deploy"}, Categories: []string{"all"},
			Subresources: []string{"status", "scale"},
		},
		{
			GVR: gv.WithResource("replicasets"), Kind: "ReplicaSet", SingularName: "replicaset", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"rs"}, Categories: []string{"all"},
			Subresources: []string{"status", "scale"},
		},
		{
			GVR: gv.WithResource("statefulsets"), Kind: "StatefulSet", SingularName: "statefulset", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"sts"}, Categories: []string{"all"},
			Subresources: []string{"status", "scale"},
		},
	}
}

func allVerbs() []string { return append([]string(nil), runtime.AllVerbs...) }

// AddToScheme registers the kinds of this package under
// SchemeGroupVersion, then their resources with the names, scope, verbs,
// short names and categories Kubernetes discovery reports.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&Deployment{}, &DeploymentList{},
		&ReplicaSet{}, &ReplicaSetList{},
		&StatefulSet{}, &StatefulSetList{},
	)
	for _, info := range resources() {
		if err := s.AddResource(info); err != nil {
			return fmt.Errorf("register %s: %w", info.GVR, err)
		}
	}
	return nil
}
