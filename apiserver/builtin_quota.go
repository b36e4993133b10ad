package apiserver

import (
	"context"
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/core"
)

var (
	gvrResourceQuotas = corev1.SchemeGroupVersion.WithResource("resourcequotas")
	gvrLimitRanges    = corev1.SchemeGroupVersion.WithResource("limitranges")
)

// installQuotaResources installs resourcequotas, with their status
// subresource, and limitranges: the objects the ResourceQuota and
// LimitRanger admission plugins enforce.
func (s *Server) installQuotaResources() error {
	for _, r := range []Resource{
		{Info: runtime.ResourceInfo{GVR: gvrResourceQuotas}, Strategy: core.ResourceQuotaStrategy{}, Tables: core.ResourceQuotaTable,
			UpdateSubresources: map[string]registry.Strategy{"status": core.ResourceQuotaStatusStrategy{}}},
		{Info: runtime.ResourceInfo{GVR: gvrLimitRanges}, Strategy: core.LimitRangeStrategy{}, Tables: core.LimitRangeTable},
	} {
		info, ok := s.scheme.Resource(r.Info.GVR)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", r.Info.GVR)
		}
		r.Info = info
		if err := s.InstallResource(r); err != nil {
			return err
		}
	}
	return nil
}

// quotaAdmission reads quotas and limit ranges for the ResourceQuota and
// LimitRanger plugins, through the registry (the API server's plugins
// have no client).
type quotaAdmission struct{ s *Server }

var (
	_ admission.QuotaAccessor    = quotaAdmission{}
	_ admission.LimitRangeLister = quotaAdmission{}
)

// ListLimitRanges implements admission.LimitRangeLister, from the watch
// cache: a range created a moment ago may not apply yet, as upstream's
// informer-backed lister.
func (q quotaAdmission) ListLimitRanges(ctx context.Context, ns string) ([]*corev1.LimitRange, error) {
	store, ok := q.s.Store(gvrLimitRanges)
	if !ok {
		return nil, nil
	}
	obj, err := store.List(ctx, ns, registry.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return nil, err
	}
	items := obj.(*corev1.LimitRangeList).Items
	out := make([]*corev1.LimitRange, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out, nil
}

// ListQuotas implements admission.QuotaAccessor: from the watch cache,
// or from etcd with opts.Live.
func (q quotaAdmission) ListQuotas(ctx context.Context, ns string, opts admission.ListQuotasOptions) ([]*corev1.ResourceQuota, error) {
	store, ok := q.s.Store(gvrResourceQuotas)
	if !ok {
		return nil, nil
	}
	rv := "0"
	if opts.Live {
		rv = ""
	}
	obj, err := store.List(ctx, ns, registry.ListOptions{ResourceVersion: rv})
	if err != nil {
		return nil, err
	}
	items := obj.(*corev1.ResourceQuotaList).Items
	out := make([]*corev1.ResourceQuota, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out, nil
}

// UpdateQuotaStatus implements admission.QuotaAccessor: a write of
// resourcequotas/status at the quota's resourceVersion.
func (q quotaAdmission) UpdateQuotaStatus(ctx context.Context, quota *corev1.ResourceQuota) error {
	store, ok := q.s.Store(gvrResourceQuotas)
	if !ok {
		return fmt.Errorf("resourcequotas are not served")
	}
	status := store.WithStrategy(core.ResourceQuotaStatusStrategy{})
	_, _, err := status.Update(ctx, quota.Namespace, quota.Name, func(context.Context, runtime.Object) (runtime.Object, error) {
		return quota.DeepCopy(), nil
	}, nil, nil, registry.UpdateOptions{})
	return err
}
