// Package bootstrappolicy holds the default RBAC policy: the ClusterRoles
// and ClusterRoleBindings every cluster starts with (cluster-admin,
// admin, edit, view, system:basic-user, system:discovery, the roles of
// the scheduler, controller-manager, nodes and kube-proxy, and one
// system:controller:* role per built-in controller). The API server
// creates them at start and adds what is missing to those annotated
// rbac.authorization.kubernetes.io/autoupdate=true.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy.
package bootstrappolicy
