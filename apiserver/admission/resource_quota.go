package admission

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/quota"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/wait"
)

// QuotaAccessor reads and charges the ResourceQuotas of a namespace.
type QuotaAccessor interface {
	// ListQuotas returns the quotas of ns. Without opts.Live it may answer
	// from a cache that can be a moment behind etcd; with it, it reads
	// etcd (a charge must start from the latest usage).
	ListQuotas(ctx context.Context, ns string, opts ListQuotasOptions) ([]*corev1.ResourceQuota, error)
	// UpdateQuotaStatus writes q's status, optimistically: a q whose
	// resourceVersion is not the stored one is a Conflict.
	UpdateQuotaStatus(ctx context.Context, q *corev1.ResourceQuota) error
}

// ListQuotasOptions tunes ListQuotas.
type ListQuotasOptions struct {
	// Live asks for etcd's current state instead of a cached one.
	Live bool
}

// quotaRetry bounds the attempts at charging quotas that other requests
// charge at the same time: each conflict reads them again, at once.
var quotaRetry = wait.Backoff{Steps: 10}

// ResourceQuota refuses (403) the creation of an object that would take
// its namespace past a ResourceQuota, and charges the quotas for what it
// admits: their status.used goes up in the same step, before the object
// is stored, so two creates racing for the last unit cannot both pass.
// The resource quota controller later recomputes usage from what exists,
// which also returns what was charged for objects that failed to store.
//
// A quota whose status the controller has not filled yet refuses every
// create it would bound, as upstream ("status unknown for quota").
//
// The zero value with Quotas set is ready to use; it is safe for
// concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/resourcequota (QuotaAdmission).
type ResourceQuota struct {
	Quotas QuotaAccessor
}

var _ ValidationInterface = (*ResourceQuota)(nil)

// Name implements Plugin.
func (*ResourceQuota) Name() string { return "ResourceQuota" }

// Handles implements Plugin: creates, the only writes minicp charges.
func (*ResourceQuota) Handles(op Operation) bool { return op == Create }

// Validate implements ValidationInterface.
func (r *ResourceQuota) Validate(ctx context.Context, a *Attributes) error {
	if a.Subresource != "" || a.Namespace == "" {
		return nil
	}
	gr := runtime.GroupResource{Group: a.Resource.Group, Resource: a.Resource.Resource}
	usage := quota.ObjectCount(gr)
	pod, isPod := a.Object.(*corev1.Pod)
	if isPod {
		usage = quota.PodUsage(pod)
	}
	forbidden := func(err error) error { return apierrors.NewForbidden(gr, a.Name, err) }
	// Most namespaces have no quota: the cache says so without a read of
	// etcd on every create. A quota created a moment ago may be missed,
	// as upstream's informer-backed lister may miss it.
	cached, err := r.Quotas.ListQuotas(ctx, a.Namespace, ListQuotasOptions{})
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("list resource quotas: %w", err))
	}
	if len(cached) == 0 {
		return nil
	}
	// charging is set once an attempt has judged the quotas and writes
	// them: an error from that write is the server's (500), not the
	// request's.
	var charging bool
	err = wait.OnError(ctx, quotaRetry, apierrors.IsConflict, func() error {
		charging = false
		quotas, err := r.Quotas.ListQuotas(ctx, a.Namespace, ListQuotasOptions{Live: true})
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("list resource quotas: %w", err))
		}
		var charged []*corev1.ResourceQuota
		for _, q := range quotas {
			if quota.HasScopes(q) && (!isPod || !quota.PodMatchesScopes(pod, q)) {
				continue
			}
			relevant := quota.Mask(usage, q.Spec.Hard)
			if isPod {
				if missing := quota.MissingCompute(pod, q.Spec.Hard); len(missing) > 0 {
					return forbidden(fmt.Errorf("failed quota: %s: must specify %s", q.Name, strings.Join(missing, ",")))
				}
			}
			if len(relevant) == 0 {
				continue
			}
			var unknown []string
			for name := range relevant {
				if _, ok := q.Status.Hard[name]; !ok {
					unknown = append(unknown, string(name))
				}
			}
			if len(unknown) > 0 {
				slices.Sort(unknown)
				return forbidden(fmt.Errorf("status unknown for quota: %s, resources: %s", q.Name, strings.Join(unknown, ",")))
			}
			if err := checkQuota(q, relevant); err != nil {
				return forbidden(err)
			}
			next := q.DeepCopy()
			next.Status.Used = quota.Add(q.Status.Used, relevant)
			charged = append(charged, next)
		}
		if a.DryRun {
			return nil
		}
		charging = true
		return r.charge(ctx, charged)
	})
	if err != nil && charging {
		return apierrors.NewInternalError(fmt.Errorf("update resource quota status: %w", err))
	}
	return err
}

// charge writes the new usage of each quota. A conflict on one after
// others were written leaves those charged: the controller returns the
// excess when it next recomputes, as it does for an object that fails
// to store after admission.
func (r *ResourceQuota) charge(ctx context.Context, quotas []*corev1.ResourceQuota) error {
	for _, q := range quotas {
		if err := r.Quotas.UpdateQuotaStatus(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// checkQuota returns the error of a request for usage that would take q
// past its bounds: every exceeded resource with what was requested, used
// and allowed.
func checkQuota(q *corev1.ResourceQuota, usage corev1.ResourceList) error {
	requested, used, limited := corev1.ResourceList{}, corev1.ResourceList{}, corev1.ResourceList{}
	for name, delta := range usage {
		hard := q.Status.Hard[name]
		total := q.Status.Used[name]
		total.Add(delta)
		if total.Cmp(hard) > 0 {
			requested[name], used[name], limited[name] = delta, q.Status.Used[name], hard
		}
	}
	if len(requested) == 0 {
		return nil
	}
	return fmt.Errorf("exceeded quota: %s, requested: %s, used: %s, limited: %s",
		q.Name, prettyPrint(requested), prettyPrint(used), prettyPrint(limited))
}

// prettyPrint writes a resource list as upstream does: name=value,
// sorted, comma-separated.
func prettyPrint(list corev1.ResourceList) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(list)) {
		q := list[name]
		parts = append(parts, fmt.Sprintf("%s=%s", name, q.String()))
	}
	return strings.Join(parts, ",")
}
