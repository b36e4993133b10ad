package rbac_test

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authz/rbac"
)

// fakeSource is an in-memory rbac.Source indexed as the API server's.
type fakeSource struct {
	roles        map[string]*rbacv1.Role // "ns/name"
	clusterRoles map[string]*rbacv1.ClusterRole
	rbIndex      map[string][]*rbacv1.RoleBinding
	crbIndex     map[string][]*rbacv1.ClusterRoleBinding
}

func newFakeSource() *fakeSource {
	return &fakeSource{roles: map[string]*rbacv1.Role{}, clusterRoles: map[string]*rbacv1.ClusterRole{},
		rbIndex: map[string][]*rbacv1.RoleBinding{}, crbIndex: map[string][]*rbacv1.ClusterRoleBinding{}}
}

func (f *fakeSource) addRole(ns, name string, rules ...rbacv1.PolicyRule) {
	f.roles[ns+"/"+name] = &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Rules: rules}
}

func (f *fakeSource) addClusterRole(name string, rules ...rbacv1.PolicyRule) {
	f.clusterRoles[name] = &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
}

func (f *fakeSource) addRoleBinding(ns, name, kind, role string, subjects ...rbacv1.Subject) {
	b := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Subjects: subjects,
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: kind, Name: role}}
	for _, k := range rbac.SubjectIndexKeys(ns, subjects) {
		f.rbIndex[k] = append(f.rbIndex[k], b)
	}
}

func (f *fakeSource) addClusterRoleBinding(name, role string, subjects ...rbacv1.Subject) {
	b := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name}, Subjects: subjects,
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role}}
	for _, k := range rbac.SubjectIndexKeys("", subjects) {
		f.crbIndex[k] = append(f.crbIndex[k], b)
	}
}

func (f *fakeSource) GetRole(_ context.Context, ns, name string) (*rbacv1.Role, error) {
	if r, ok := f.roles[ns+"/"+name]; ok {
		return r, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Group: rbacv1.GroupName, Resource: "role"}, name)
}

func (f *fakeSource) GetClusterRole(_ context.Context, name string) (*rbacv1.ClusterRole, error) {
	if r, ok := f.clusterRoles[name]; ok {
		return r, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Group: rbacv1.GroupName, Resource: "clusterrole"}, name)
}

func (f *fakeSource) RoleBindingsByIndex(_ context.Context, keys []string) ([]*rbacv1.RoleBinding, error) {
	return dedupe(f.rbIndex, keys), nil
}

func (f *fakeSource) ClusterRoleBindingsByIndex(_ context.Context, keys []string) ([]*rbacv1.ClusterRoleBinding, error) {
	return dedupe(f.crbIndex, keys), nil
}

func dedupe[T comparable](index map[string][]T, keys []string) []T {
	var out []T
	seen := map[T]bool{}
	for _, k := range keys {
		for _, b := range index[k] {
			if !seen[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	return out
}

func user(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}
}

func group(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: name}
}

func serviceAccount(ns, name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: name}
}

func rule(verbs, groups, resources []string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{Verbs: verbs, APIGroups: groups, Resources: resources}
}

func l(s ...string) []string { return s }
