package apiserver

import (
	"context"

	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/metrics"
)

// installMetricsResources installs metrics.k8s.io/v1beta1, the resource
// metrics API of `kubectl top`: nodes (NodeMetrics) and pods
// (PodMetrics), get and list only, computed from the kubelets' usage on
// every read. Upstream an aggregated API server, metrics-server, serves
// them and kube-apiserver proxies to it; minicp serves them itself, and
// discovery lists them as it lists metrics-server's. Pods and nodes must
// be installed.
func (s *Server) installMetricsResources() error {
	pods, _ := s.Store(gvrPods)
	nodes, _ := s.Store(corev1.SchemeGroupVersion.WithResource("nodes"))
	opts := metrics.Options{Pods: pods, Nodes: nodes, Clock: s.clock}
	nodeStorage, err := metrics.NewNodeStorage(opts)
	if err != nil {
		return err
	}
	podStorage, err := metrics.NewPodStorage(opts)
	if err != nil {
		return err
	}
	for _, r := range []Resource{
		{Info: metricsv1beta1.NodesResource(), Storage: nodeStorage, Tables: metrics.NodeMetricsTable},
		{Info: metricsv1beta1.PodsResource(), Storage: podStorage, Tables: metrics.PodMetricsTable},
	} {
		info, ok := s.scheme.Resource(r.Info.GVR)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", r.Info.GVR)
		}
		r.Info = info
		r.Strategy = readOnlyStrategy{}
		if err := s.InstallResource(r); err != nil {
			return err
		}
	}
	return nil
}

// installComputedResource installs a resource served by its own
// Resource.Storage: no etcd store, no watch cache, no field manager
// (nothing is written).
func (s *Server) installComputedResource(r Resource) error {
	if err := s.scheme.AddResource(r.Info); err != nil {
		return fmt.Errorf("install %s: %w", r.Info.GVR, err)
	}
	rs, err := registry.NewStore(registry.Options{
		Resource: r.Info, Scheme: s.scheme, Storage: r.Storage, Strategy: r.Strategy, Clock: s.clock, Logger: s.log,
	})
	if err != nil {
		return fmt.Errorf("install %s: %w", r.Info.GVR, err)
	}
	tables := r.Tables
	if tables == nil {
		tables = defaultTables
	}
	scope := &handlers.Scope{Store: rs, Admission: s.admission, Tables: rowObjectKinds{tables, s.scheme}, Clock: s.clock, Logger: s.log}
	installed := &resource{info: r.Info, scope: scope, update: map[string]*handlers.Scope{}, warnings: r.Warnings}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.resources[r.Info.GVR]; ok {
		s.stopCacherLocked(old.cacher)
	}
	s.resources[r.Info.GVR] = installed
	return nil
}

// readOnlyStrategy is the strategy of computed resources: they are
// never created or updated, so it is never asked to validate; it exists
// because every installed resource has one.
type readOnlyStrategy struct{ registry.DefaultStrategy }

func (readOnlyStrategy) Validate(context.Context, runtime.Object) apierrors.FieldErrors { return nil }
func (readOnlyStrategy) ValidateUpdate(context.Context, runtime.Object, runtime.Object) apierrors.FieldErrors {
	return nil
}
