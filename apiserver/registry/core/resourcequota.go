package core

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// ResourceQuotaStrategy is the rules of the resourcequotas resource: the
// spec is the client's; the status belongs to the resource quota
// controller and to the ResourceQuota admission plugin, which writes
// usage as it admits.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/resourcequota (resourcequotaStrategy).
type ResourceQuotaStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new quota has no
// status.
func (ResourceQuotaStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*corev1.ResourceQuota).Status = corev1.ResourceQuotaStatus{}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (ResourceQuotaStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.ResourceQuota).Status = old.(*corev1.ResourceQuota).Status
}

// Validate implements registry.Strategy.
func (ResourceQuotaStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateResourceQuota(obj.(*corev1.ResourceQuota))
}

// ValidateUpdate implements registry.Strategy.
func (ResourceQuotaStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateResourceQuotaUpdate(obj.(*corev1.ResourceQuota), old.(*corev1.ResourceQuota))
}

// ResourceQuotaStatusStrategy is the rules of resourcequotas/status: only
// status changes.
type ResourceQuotaStatusStrategy struct{ ResourceQuotaStrategy }

// PrepareForUpdate implements registry.Strategy.
func (ResourceQuotaStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.ResourceQuota).Spec = old.(*corev1.ResourceQuota).Spec
}

// ValidateUpdate implements registry.Strategy.
func (ResourceQuotaStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateResourceQuotaStatusUpdate(obj.(*corev1.ResourceQuota), old.(*corev1.ResourceQuota))
}

// ResourceQuotaTable prints quotas as `kubectl get quota` does: NAME AGE
// REQUEST LIMIT, each resource as "name: used/hard", the limits.*
// resources under LIMIT and the others under REQUEST.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printResourceQuota).
var ResourceQuotaTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		printers.AgeColumn,
		{Name: "Request", Type: "string", Description: "Request represents a minimum amount of cpu/memory that a container may consume."},
		{Name: "Limit", Type: "string", Description: "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		q := obj.(*corev1.ResourceQuota)
		names := make([]string, 0, len(q.Status.Hard))
		for name := range q.Status.Hard {
			names = append(names, string(name))
		}
		slices.Sort(names)
		var requests, limits []string
		for _, name := range names {
			used, hard := q.Status.Used[corev1.ResourceName(name)], q.Status.Hard[corev1.ResourceName(name)]
			cell := fmt.Sprintf("%s: %s/%s", name, used.String(), hard.String())
			if strings.HasPrefix(name, "limits.") {
				limits = append(limits, cell)
			} else {
				requests = append(requests, cell)
			}
		}
		return []any{q.Name, printers.Age(obj, now), strings.Join(requests, ", "), strings.Join(limits, ", ")}
	},
}

// LimitRangeStrategy is the rules of the limitranges resource, which has
// no status.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/limitrange (limitrangeStrategy).
type LimitRangeStrategy struct{ registry.DefaultStrategy }

// Validate implements registry.Strategy.
func (LimitRangeStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateLimitRange(obj.(*corev1.LimitRange))
}

// ValidateUpdate implements registry.Strategy.
func (LimitRangeStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	lr, prev := obj.(*corev1.LimitRange), old.(*corev1.LimitRange)
	errs := validation.ValidateObjectMetaUpdate(&lr.ObjectMeta, &prev.ObjectMeta, "metadata")
	return append(errs, validation.ValidateLimitRange(lr)...)
}

// LimitRangeTable prints limit ranges as `kubectl get limits` does: NAME
// CREATED AT.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printLimitRange).
var LimitRangeTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Created At", Type: "date", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"},
	},
	Cells: func(obj runtime.Object, _ time.Time) []any {
		lr := obj.(*corev1.LimitRange)
		return []any{lr.Name, lr.CreationTimestamp.UTC().Format(time.RFC3339)}
	},
}
