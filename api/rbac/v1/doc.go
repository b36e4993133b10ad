// Package v1 holds the rbac.authorization.k8s.io/v1 kinds: Roles and
// ClusterRoles, which list what may be done (PolicyRules), and
// RoleBindings and ClusterRoleBindings, which grant a role to users,
// groups and ServiceAccounts. The RBAC authorizer reads them on every
// request to decide the authorization hop of the request path.
//
// Import it as rbacv1. Field names, JSON spellings and protobuf field
// numbers match k8s.io/api/rbac/v1.
//
// Upstream: k8s.io/api/rbac/v1.
package v1
