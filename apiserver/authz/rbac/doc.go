// Package rbac is the RBAC authorizer: the authorization hop of the
// request path decided by Roles, ClusterRoles and their bindings. A
// request is allowed when some binding whose subjects include the user
// (by name, by one of its groups, or as a ServiceAccount) refers to a
// role with a rule that matches the request's verb, API group, resource
// (or subresource), name, or non-resource path. Nothing denies: a
// request no rule allows gets no opinion, and the chain turns that into
// 403.
//
// ClusterRoleBindings apply everywhere; RoleBindings apply only in their
// own namespace, even when they refer to a ClusterRole. The authorizer
// reads the RBAC objects through Source, which the API server implements
// over its watch caches, indexed by subject so a decision looks only at
// the bindings of the user and its groups.
//
// The package also holds what the RBAC registry needs to prevent
// escalation (RulesFor, Covers, ConfirmNoEscalation), and
// bootstrappolicy holds the default roles the API server creates.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac and
// k8s.io/kubernetes/pkg/registry/rbac/validation.
package rbac
