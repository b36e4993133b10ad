package v1

import "github.com/minicp/minicp/api/runtime"

// SetDefaults fills in what a client may leave out of a binding, in
// place: roleRef.apiGroup, and the apiGroup of User and Group subjects,
// are this group. Other kinds are left alone.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/v1 (SetDefaults_RoleBinding,
// SetDefaults_ClusterRoleBinding, SetDefaults_Subject).
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *RoleBinding:
		defaultBinding(&o.RoleRef, o.Subjects)
	case *ClusterRoleBinding:
		defaultBinding(&o.RoleRef, o.Subjects)
	case *RoleBindingList:
		for i := range o.Items {
			defaultBinding(&o.Items[i].RoleRef, o.Items[i].Subjects)
		}
	case *ClusterRoleBindingList:
		for i := range o.Items {
			defaultBinding(&o.Items[i].RoleRef, o.Items[i].Subjects)
		}
	}
}

func defaultBinding(ref *RoleRef, subjects []Subject) {
	if ref.APIGroup == "" {
		ref.APIGroup = GroupName
	}
	for i := range subjects {
		if s := &subjects[i]; s.APIGroup == "" && (s.Kind == UserKind || s.Kind == GroupKind) {
			s.APIGroup = GroupName
		}
	}
}
