// Package resourcequota is the resource quota controller: it keeps the
// status of every ResourceQuota, status.hard (the spec's bounds, which
// the ResourceQuota admission plugin enforces only once they appear
// there) and status.used (what the namespace holds of each bounded
// resource, recomputed from what exists).
//
// The admission plugin charges a quota as it admits an object; this
// controller recomputes usage whenever a pod, Service, ConfigMap or
// Secret of the namespace changes, and every SyncPeriod for the other
// kinds a quota may count (count/<resource>.<group>), so usage charged
// for objects that were never stored, or that were deleted, is returned.
// Pods are measured with package quota, as the plugin measures them.
//
// Add registers it on a Manager.
//
// Upstream: k8s.io/kubernetes/pkg/controller/resourcequota.
package resourcequota
