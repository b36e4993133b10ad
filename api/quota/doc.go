// Package quota measures what objects use of a ResourceQuota: a pod's
// count and the CPU and memory it requests and is limited to, any
// object's count/<resource>.<group>, and whether a quota's scopes cover
// a pod. The ResourceQuota admission plugin (which charges a new object
// to the quotas of its namespace) and the resource quota controller
// (which recomputes status.used from what exists) measure alike because
// both use it.
//
// Upstream: k8s.io/kubernetes/pkg/quota/v1 and its evaluators
// (k8s.io/kubernetes/pkg/quota/v1/evaluator/core).
package quota
