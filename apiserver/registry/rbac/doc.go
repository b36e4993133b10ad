// Package rbac holds the registry strategies of rbac.authorization.k8s.io:
// namespaced Roles and RoleBindings, cluster-scoped ClusterRoles and
// ClusterRoleBindings. Besides validation (a binding's roleRef is
// immutable) they prevent escalation, on the write path just before
// validation: a user may create or update a role only with rules it
// holds itself, unless it may `escalate` the role, and may bind a role
// only if it holds the role's rules, unless it may `bind` it. Members of
// system:masters skip both checks.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac (role, clusterrole,
// rolebinding, clusterrolebinding and their policybased storage).
package rbac
