package apiserver

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/scheduling"
	"github.com/minicp/minicp/apiserver/request"
)

// installSchedulingResources installs scheduling.k8s.io/v1
// priorityclasses.
//
// Upstream: k8s.io/kubernetes/pkg/registry/scheduling/rest.
func (s *Server) installSchedulingResources() error {
	gvr := schedulingv1.Resource().GVR
	info, ok := s.scheme.Resource(gvr)
	if !ok {
		return fmt.Errorf("apiserver: the scheme has no resource %s", gvr)
	}
	return s.InstallResource(Resource{Info: info, Strategy: scheduling.PriorityClassStrategy{}, Tables: scheduling.PriorityClassTable})
}

// ensureSystemPriorityClasses creates the system's priority classes
// (system-node-critical, system-cluster-critical) that are missing; one
// that exists is left as it is (validation forbids changing its value).
// The server's start runs it with the default RBAC policy, before it is
// ready.
//
// Upstream: the scheduling/bootstrap-system-priority-classes post-start
// hook (k8s.io/kubernetes/pkg/registry/scheduling/rest).
func (s *Server) ensureSystemPriorityClasses(ctx context.Context) error {
	store, ok := s.Store(schedulingv1.Resource().GVR)
	if !ok {
		return nil // not served by this server
	}
	ctx = request.WithUser(ctx, loopbackUser)
	for _, pc := range schedulingv1.SystemPriorityClasses() {
		if _, err := s.getCached(ctx, store.Resource.GVR, "", pc.Name); err == nil {
			continue
		} else if !apierrors.IsNotFound(err) {
			return fmt.Errorf("read priorityclass %s: %w", pc.Name, err)
		}
		if _, err := store.Create(ctx, pc, nil, registry.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create priorityclass %s: %w", pc.Name, err)
		}
	}
	return nil
}

// priorityAdmission reads the priority classes for the Priority
// admission plugin, from the watch cache, as upstream's plugin reads its
// informer: a class created a moment ago may not be found yet.
type priorityAdmission struct{ s *Server }

var _ admission.PriorityClasses = priorityAdmission{}

// GetPriorityClass implements admission.PriorityClasses.
func (p priorityAdmission) GetPriorityClass(ctx context.Context, name string) (*schedulingv1.PriorityClass, error) {
	obj, err := p.s.getCached(ctx, schedulingv1.Resource().GVR, "", name)
	if err != nil {
		return nil, err
	}
	return obj.(*schedulingv1.PriorityClass), nil
}

// ListPriorityClasses implements admission.PriorityClasses.
func (p priorityAdmission) ListPriorityClasses(ctx context.Context) ([]*schedulingv1.PriorityClass, error) {
	store, ok := p.s.Store(schedulingv1.Resource().GVR)
	if !ok {
		return nil, nil
	}
	obj, err := store.List(ctx, "", registry.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return nil, err
	}
	items := obj.(*schedulingv1.PriorityClassList).Items
	out := make([]*schedulingv1.PriorityClass, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out, nil
}
