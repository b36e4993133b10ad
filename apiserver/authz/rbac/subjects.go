package rbac

import (
	"slices"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/request"
)

// ServiceAccountUsernamePrefix starts the user name of every
// ServiceAccount: system:serviceaccount:<namespace>:<name>.
const ServiceAccountUsernamePrefix = "system:serviceaccount:"

// ServiceAccountUsername is the user name a ServiceAccount authenticates
// as.
func ServiceAccountUsername(namespace, name string) string {
	return ServiceAccountUsernamePrefix + namespace + ":" + name
}

// ServiceAccountGroups are the groups a ServiceAccount's user is in,
// besides system:authenticated: every ServiceAccount's, and its
// namespace's.
func ServiceAccountGroups(namespace string) []string {
	return []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace}
}

// appliesTo returns the index of the first subject that is u, when one
// is. namespace is the binding's ("" for a ClusterRoleBinding): a
// ServiceAccount subject without a namespace is in it.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation (appliesTo).
func appliesTo(u *request.User, subjects []rbacv1.Subject, namespace string) (int, bool) {
	for i := range subjects {
		if appliesToUser(u, &subjects[i], namespace) {
			return i, true
		}
	}
	return 0, false
}

func appliesToUser(u *request.User, s *rbacv1.Subject, namespace string) bool {
	switch s.Kind {
	case rbacv1.UserKind:
		return u.Name == s.Name
	case rbacv1.GroupKind:
		return slices.Contains(u.Groups, s.Name)
	case rbacv1.ServiceAccountKind:
		ns := namespace
		if s.Namespace != "" {
			ns = s.Namespace
		}
		return ns != "" && u.Name == ServiceAccountUsername(ns, s.Name)
	}
	return false
}

// Index keys name a subject the way the Source's indexes file bindings:
// "User:<name>" (a ServiceAccount subject is filed under its user name)
// and "Group:<name>". A RoleBinding's keys are prefixed with its
// namespace and "/", so one namespace's bindings are looked up without
// another's.

// SubjectIndexKeys returns the index keys of a binding's subjects.
// namespace is a RoleBinding's namespace, "" for a ClusterRoleBinding.
// It is the index function of Source implementations.
func SubjectIndexKeys(namespace string, subjects []rbacv1.Subject) []string {
	prefix := ""
	if namespace != "" {
		prefix = namespace + "/"
	}
	keys := make([]string, 0, len(subjects))
	for _, s := range subjects {
		var key string
		switch s.Kind {
		case rbacv1.UserKind:
			key = "User:" + s.Name
		case rbacv1.GroupKind:
			key = "Group:" + s.Name
		case rbacv1.ServiceAccountKind:
			ns := namespace
			if s.Namespace != "" {
				ns = s.Namespace
			}
			if ns == "" {
				continue // matches nobody
			}
			key = "User:" + ServiceAccountUsername(ns, s.Name)
		default:
			continue
		}
		if !slices.Contains(keys, prefix+key) {
			keys = append(keys, prefix+key)
		}
	}
	return keys
}

// userIndexKeys returns the index keys a binding of u may be filed
// under: its name and each of its groups, in namespace when it is not "".
func userIndexKeys(u *request.User, namespace string) []string {
	prefix := ""
	if namespace != "" {
		prefix = namespace + "/"
	}
	keys := make([]string, 0, 1+len(u.Groups))
	keys = append(keys, prefix+"User:"+u.Name)
	for _, g := range u.Groups {
		keys = append(keys, prefix+"Group:"+g)
	}
	return keys
}
