package apiserver

import (
	"fmt"
	"slices"

	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/core"
	"github.com/minicp/minicp/apiserver/registry/policy"
)

// installPolicyResources installs policy/v1 poddisruptionbudgets with
// their status subresource, and pods/eviction, which spends the budgets:
// pods must be installed first.
//
// Upstream: k8s.io/kubernetes/pkg/registry/policy/rest and the
// "pods/eviction" entry of k8s.io/kubernetes/pkg/registry/core/rest.
func (s *Server) installPolicyResources() error {
	gvr := policyv1.Resource().GVR
	info, ok := s.scheme.Resource(gvr)
	if !ok {
		return fmt.Errorf("apiserver: the scheme has no resource %s", gvr)
	}
	status := policy.PodDisruptionBudgetStatusStrategy{}
	if err := s.InstallResource(Resource{
		Info: info, Strategy: policy.PodDisruptionBudgetStrategy{}, Tables: policy.PodDisruptionBudgetTable,
		UpdateSubresources: map[string]registry.Strategy{"status": status},
	}); err != nil {
		return err
	}
	pdbs, _ := s.Store(gvr)
	pods, ok := s.Store(gvrPods)
	if !ok {
		return fmt.Errorf("apiserver: pods/eviction: %s is not installed", gvrPods)
	}
	return s.addEvictionSubresource(core.Eviction(s.clock, pods, pdbs.WithStrategy(status)))
}

// addEvictionSubresource lists "eviction" among the pods' subresources,
// for discovery, and serves it.
func (s *Server) addEvictionSubresource(fn registry.NamedCreater) error {
	info, ok := s.scheme.Resource(gvrPods)
	if !ok {
		return fmt.Errorf("apiserver: pods/eviction: the scheme has no resource %s", gvrPods)
	}
	if !info.HasSubresource("eviction") {
		info.Subresources = append(slices.Clone(info.Subresources), "eviction")
		if err := s.scheme.AddResource(info); err != nil {
			return fmt.Errorf("apiserver: pods/eviction: %w", err)
		}
	}
	s.mu.Lock()
	if r, ok := s.resources[gvrPods]; ok {
		r.info = info
	}
	s.mu.Unlock()
	s.addCreateSubresource(gvrPods, "eviction", fn)
	return nil
}
