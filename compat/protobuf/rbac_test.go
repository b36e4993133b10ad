package protobuf

import (
	kauthenticationv1 "k8s.io/api/authentication/v1"
	kauthorizationv1 "k8s.io/api/authorization/v1"
	krbacv1 "k8s.io/api/rbac/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	authorizationv1 "github.com/minicp/minicp/api/authorization/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
)

// rbacCases are the rbac.authorization.k8s.io kinds and the review kinds
// of authorization.k8s.io and authentication.k8s.io, filled. They have no
// golden files: the main module has no protobuf test of its own for them.
func rbacCases() []compatCase {
	k8s := func(new func() kruntime.Object) func() kruntime.Object { return new }
	const rbac, authz, authn = "rbac.authorization.k8s.io/v1", "authorization.k8s.io/v1", "authentication.k8s.io/v1"
	return []compatCase{
		{name: "RoleList-filled", minicp: withTypeMeta(fill(&rbacv1.RoleList{}), rbac, "RoleList"), k8s: k8s(func() kruntime.Object { return &krbacv1.RoleList{} }), noGolden: true},
		{name: "RoleBindingList-filled", minicp: withTypeMeta(fill(&rbacv1.RoleBindingList{}), rbac, "RoleBindingList"), k8s: k8s(func() kruntime.Object { return &krbacv1.RoleBindingList{} }), noGolden: true},
		{name: "ClusterRole-filled", minicp: withTypeMeta(fill(&rbacv1.ClusterRole{}), rbac, "ClusterRole"), k8s: k8s(func() kruntime.Object { return &krbacv1.ClusterRole{} }), noGolden: true},
		{name: "ClusterRoleList-filled", minicp: withTypeMeta(fill(&rbacv1.ClusterRoleList{}), rbac, "ClusterRoleList"), k8s: k8s(func() kruntime.Object { return &krbacv1.ClusterRoleList{} }), noGolden: true},
		{name: "ClusterRoleBindingList-filled", minicp: withTypeMeta(fill(&rbacv1.ClusterRoleBindingList{}), rbac, "ClusterRoleBindingList"), k8s: k8s(func() kruntime.Object { return &krbacv1.ClusterRoleBindingList{} }), noGolden: true},
		{name: "SubjectAccessReview-filled", minicp: withTypeMeta(fill(&authorizationv1.SubjectAccessReview{}), authz, "SubjectAccessReview"), k8s: k8s(func() kruntime.Object { return &kauthorizationv1.SubjectAccessReview{} }), noGolden: true},
		{name: "SelfSubjectAccessReview-filled", minicp: withTypeMeta(fill(&authorizationv1.SelfSubjectAccessReview{}), authz, "SelfSubjectAccessReview"), k8s: k8s(func() kruntime.Object { return &kauthorizationv1.SelfSubjectAccessReview{} }), noGolden: true},
		{name: "LocalSubjectAccessReview-filled", minicp: withTypeMeta(fill(&authorizationv1.LocalSubjectAccessReview{}), authz, "LocalSubjectAccessReview"), k8s: k8s(func() kruntime.Object { return &kauthorizationv1.LocalSubjectAccessReview{} }), noGolden: true},
		{name: "SelfSubjectRulesReview-filled", minicp: withTypeMeta(fill(&authorizationv1.SelfSubjectRulesReview{}), authz, "SelfSubjectRulesReview"), k8s: k8s(func() kruntime.Object { return &kauthorizationv1.SelfSubjectRulesReview{} }), noGolden: true},
		{name: "SelfSubjectReview-filled", minicp: withTypeMeta(fill(&authenticationv1.SelfSubjectReview{}), authn, "SelfSubjectReview"), k8s: k8s(func() kruntime.Object { return &kauthenticationv1.SelfSubjectReview{} }), noGolden: true},
		{name: "TokenRequest-filled", minicp: withTypeMeta(fill(&authenticationv1.TokenRequest{}), authn, "TokenRequest"), k8s: k8s(func() kruntime.Object { return &kauthenticationv1.TokenRequest{} }), noGolden: true},
		{name: "TokenReview-filled", minicp: withTypeMeta(fill(&authenticationv1.TokenReview{}), authn, "TokenReview"), k8s: k8s(func() kruntime.Object { return &kauthenticationv1.TokenReview{} }), noGolden: true},
	}
}
