package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "rbac.authorization.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers the four RBAC kinds and their resources as
// Kubernetes discovery reports them: no short names, no categories.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&Role{}, &RoleList{}, &RoleBinding{}, &RoleBindingList{},
		&ClusterRole{}, &ClusterRoleList{}, &ClusterRoleBinding{}, &ClusterRoleBindingList{},
	)
	gv := SchemeGroupVersion
	for _, info := range []runtime.ResourceInfo{
		{GVR: gv.WithResource("clusterrolebindings"), Kind: "ClusterRoleBinding", SingularName: "clusterrolebinding"},
		{GVR: gv.WithResource("clusterroles"), Kind: "ClusterRole", SingularName: "clusterrole"},
		{GVR: gv.WithResource("rolebindings"), Kind: "RoleBinding", SingularName: "rolebinding", Namespaced: true},
		{GVR: gv.WithResource("roles"), Kind: "Role", SingularName: "role", Namespaced: true},
	} {
		info.Verbs = append([]string(nil), runtime.AllVerbs...)
		if err := s.AddResource(info); err != nil {
			return fmt.Errorf("register %s: %w", info.GVR, err)
		}
	}
	return nil
}
