package apiserver

import (
	"fmt"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/apps"
	"github.com/minicp/minicp/apiserver/registry/batch"
	"github.com/minicp/minicp/apiserver/registry/core"
	"github.com/minicp/minicp/storage"
)

// SetDefaults defaults every built-in kind, in place: core/v1, apps/v1,
// batch/v1, apiextensions.k8s.io/v1, rbac.authorization.k8s.io/v1, discovery.k8s.io/v1
// and autoscaling/v1 and v2 (see each package's SetDefaults).
// It is the defaulting of DefaultAdmission.
func SetDefaults(obj runtime.Object) {
	corev1.SetDefaults(obj)
	appsv1.SetDefaults(obj)
	batchv1.SetDefaults(obj)
	apiextensionsv1.SetDefaults(obj)
	rbacv1.SetDefaults(obj)
	discoveryv1.SetDefaults(obj)
	autoscalingv1.SetDefaults(obj)
	autoscalingv2.SetDefaults(obj)
}

var (
	gvrServices     = corev1.SchemeGroupVersion.WithResource("services")
	gvrDeployments  = appsv1.SchemeGroupVersion.WithResource("deployments")
	gvrReplicaSets  = appsv1.SchemeGroupVersion.WithResource("replicasets")
	gvrStatefulSets = appsv1.SchemeGroupVersion.WithResource("statefulsets")
)

// installWorkloadResources installs the resources of workloads and what
// they run with, after the core ones: deployments, replicasets and
// statefulsets (with status and scale), jobs (with status), services
// (with status, and their cluster IP and node port allocators), endpoints,
// configmaps, secrets and serviceaccounts, each with the ResourceInfo the
// Scheme has for it.
func (s *Server) installWorkloadResources() error {
	services, err := s.newServiceStrategy()
	if err != nil {
		return err
	}
	resources := []struct {
		gvr runtime.GroupVersionResource
		r   Resource
	}{
		{gvrDeployments, Resource{
			Strategy: apps.DeploymentStrategy{}, Tables: apps.DeploymentTable,
			UpdateSubresources: map[string]registry.Strategy{"status": apps.DeploymentStatusStrategy{}},
		}},
		{gvrReplicaSets, Resource{
			Strategy: apps.ReplicaSetStrategy{}, Tables: apps.ReplicaSetTable,
			UpdateSubresources: map[string]registry.Strategy{"status": apps.ReplicaSetStatusStrategy{}},
		}},
		{gvrStatefulSets, Resource{
			Strategy: apps.StatefulSetStrategy{}, Tables: apps.StatefulSetTable,
			UpdateSubresources: map[string]registry.Strategy{"status": apps.StatefulSetStatusStrategy{}},
		}},
		{batchv1.SchemeGroupVersion.WithResource("jobs"), Resource{
			Strategy: batch.JobStrategy{}, Tables: batch.JobTable,
			UpdateSubresources: map[string]registry.Strategy{"status": batch.JobStatusStrategy{}},
		}},
		{gvrServices, Resource{
			Strategy: services, Tables: core.ServiceTable,
			UpdateSubresources: map[string]registry.Strategy{"status": core.ServiceStatusStrategy{ServiceStrategy: services}},
		}},
		{corev1.SchemeGroupVersion.WithResource("endpoints"), Resource{Strategy: core.EndpointsStrategy{}, Tables: core.EndpointsTable}},
		{corev1.SchemeGroupVersion.WithResource("configmaps"), Resource{Strategy: core.ConfigMapStrategy{}, Tables: core.ConfigMapTable}},
		{corev1.SchemeGroupVersion.WithResource("secrets"), Resource{Strategy: core.SecretStrategy{}, Tables: core.SecretTable}},
		{corev1.SchemeGroupVersion.WithResource("serviceaccounts"), Resource{Strategy: core.ServiceAccountStrategy{}, Tables: core.ServiceAccountTable}},
	}
	for _, res := range resources {
		info, ok := s.scheme.Resource(res.gvr)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", res.gvr)
		}
		res.r.Info = info
		if err := s.InstallResource(res.r); err != nil {
			return err
		}
	}
	if err := s.addScaleSubresource(gvrDeployments, apps.DeploymentScale); err != nil {
		return err
	}
	if err := s.addScaleSubresource(gvrReplicaSets, apps.ReplicaSetScale); err != nil {
		return err
	}
	return s.addScaleSubresource(gvrStatefulSets, apps.StatefulSetScale)
}

// newServiceStrategy returns the services' strategy with allocators of the
// default service CIDR and node port range, which keep their allocations
// under the server's etcd prefix, so every API server on the prefix shares
// them.
func (s *Server) newServiceStrategy() (core.ServiceStrategy, error) {
	newStorage := func(resource string) (storage.Interface, error) {
		return storage.NewStore(s.etcd, storage.StoreOptions{
			Prefix: s.prefix, GroupResource: runtime.GroupResource{Resource: resource},
			NewFunc: core.NewAllocationRecord, Logger: s.log,
		})
	}
	ipStorage, err := newStorage("serviceipallocations")
	if err != nil {
		return core.ServiceStrategy{}, fmt.Errorf("apiserver: %w", err)
	}
	portStorage, err := newStorage("servicenodeportallocations")
	if err != nil {
		return core.ServiceStrategy{}, fmt.Errorf("apiserver: %w", err)
	}
	ips, err := core.NewClusterIPAllocator(core.AllocatorOptions{Storage: ipStorage})
	if err != nil {
		return core.ServiceStrategy{}, fmt.Errorf("apiserver: %w", err)
	}
	ports, err := core.NewNodePortAllocator(core.AllocatorOptions{Storage: portStorage})
	if err != nil {
		return core.ServiceStrategy{}, fmt.Errorf("apiserver: %w", err)
	}
	return core.ServiceStrategy{ClusterIPs: ips, NodePorts: ports}, nil
}
