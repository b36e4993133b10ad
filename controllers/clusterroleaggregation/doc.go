// Package clusterroleaggregation is the ClusterRole aggregation
// controller: it keeps the rules of every ClusterRole with an
// aggregationRule equal to the union of the rules of the ClusterRoles its
// selectors match. That is how admin, edit and view grow when a CRD's
// author labels a ClusterRole rbac.authorization.k8s.io/aggregate-to-edit.
//
// It sees ClusterRoles only through the manager's cache and writes
// through the API server, whose RBAC registry lets it set rules it does
// not hold because its role grants escalate on clusterroles.
//
// Upstream: k8s.io/kubernetes/pkg/controller/clusterroleaggregation.
package clusterroleaggregation
