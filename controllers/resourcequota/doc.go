// Package resourcequota is the resource quota controller: it keeps the
// status of every ResourceQuota, status.hard (the spec's bounds, which
// the ResourceQuota admission plugin enforces only once they appear
// there) and status.used (what the namespace holds of each bounded
// resource, recomputed from what exists).
//
// The admission plugin charges a quota as it admits an object; this
// controller recomputes usage when the quota appears or its spec
// changes, when a pod, Service, ConfigMap or Secret of the namespace is
// deleted or a pod finishes, and every SyncPeriod (for the other kinds a
// quota may count, count/<resource>.<group>, too), so usage charged for
// objects that were never stored, or that are gone, is returned. It does
// not recompute on a create or on the plugin's charge: its cache may not
// hold the object just admitted yet, and a recompute would hand that
// object's charge back and let the next create past the bound. Pods are
// measured with package quota, as the plugin measures them.
//
// Add registers it on a Manager.
//
// Upstream: k8s.io/kubernetes/pkg/controller/resourcequota.
package resourcequota
