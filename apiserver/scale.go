package apiserver

import (
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
)

// addScaleSubresource serves the scale subresource of an installed
// resource, /{resource}/{name}/scale, with GET, PUT and PATCH of
// autoscaling/v1 Scales whose spec.replicas is read and written where
// scale says: what `kubectl scale` and autoscalers use. It also adds
// "scale" to the resource's ResourceInfo, so discovery lists it (with the
// Scale kind) for clients such as kubectl to find. Built-in kinds pass
// functions over their Go types; a CRD with a scale subresource passes
// functions over its JSON paths.
//
// Upstream: the "scale" entry of the storage map of
// k8s.io/kubernetes/pkg/registry/apps/rest (and of custom resources).
func (s *Server) addScaleSubresource(gvr runtime.GroupVersionResource, scale registry.ScaleSubresource) error {
	info, ok := s.scheme.Resource(gvr)
	if !ok {
		return fmt.Errorf("apiserver: add scale subresource: the scheme has no resource %s", gvr)
	}
	if !info.HasSubresource("scale") {
		info.Subresources = append(slices.Clone(info.Subresources), "scale")
		if err := s.scheme.AddResource(info); err != nil {
			return fmt.Errorf("apiserver: add scale subresource of %s: %w", gvr.Resource, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.resources[gvr]
	if !ok {
		return fmt.Errorf("apiserver: add scale subresource: %s is not installed", gvr)
	}
	scales, err := registry.NewScaleStore(r.scope.Store, scale)
	if err != nil {
		return fmt.Errorf("apiserver: add scale subresource of %s: %w", gvr.Resource, err)
	}
	r.info = info
	sc := *r.scope
	sc.Subresource = "scale"
	sc.Scale = scales
	sc.Tables = registry.ScaleTable
	r.update["scale"] = &sc
	return nil
}
