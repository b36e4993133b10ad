package core

import (
	"context"
	"slices"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// ServiceStrategy is the rules of the services resource. Besides checking
// the spec, it owns what a Service holds outside itself: on create it
// allocates the cluster IP (unless the Service is headless or
// ExternalName) and the node ports (for NodePort and LoadBalancer), on
// update what a type change needs, and on delete it frees them all. The
// cluster IP may not change.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/service (svcStrategy) and
// its storage's allocation hooks (k8s.io/kubernetes/pkg/registry/core/service/storage).
type ServiceStrategy struct {
	registry.DefaultStrategy
	// ClusterIPs allocates from the service CIDR. Required.
	ClusterIPs *Allocator
	// NodePorts allocates from the node port range. Required.
	NodePorts *Allocator
}

var _ registry.AllocatingStrategy = ServiceStrategy{}

// serviceGVK names services in the errors of allocation.
var serviceGVK = corev1.SchemeGroupVersion.WithKind("Service")

// PrepareForCreate implements registry.Strategy: a new Service has no
// status, and a clusterIP alone (an older client's) fills clusterIPs.
func (ServiceStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	svc := obj.(*corev1.Service)
	svc.Status = corev1.ServiceStatus{}
	if svc.Spec.ClusterIP != "" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status. A client that resubmits what it created, without the
// values the server allocated (the cluster IP, node ports), keeps them;
// a type change drops the fields the new type has no use for, unless
// the client changed them; clusterIP and clusterIPs stay in step.
func (ServiceStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	svc, oldSvc := obj.(*corev1.Service), old.(*corev1.Service)
	svc.Status = oldSvc.Status
	normalizeClusterIPs(svc, oldSvc)
	patchAllocatedValues(svc, oldSvc)
	dropTypeDependentFields(svc, oldSvc)
}

// Validate implements registry.Strategy.
func (ServiceStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateService(obj.(*corev1.Service))
}

// ValidateUpdate implements registry.Strategy.
func (ServiceStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateServiceUpdate(obj.(*corev1.Service), old.(*corev1.Service))
}

// SelectableFields implements registry.Strategy with spec.clusterIP and
// spec.type, as upstream (kube-proxy skips headless services with them).
func (ServiceStrategy) SelectableFields(obj runtime.Object) fields.Set {
	svc := obj.(*corev1.Service)
	return fields.Set{"spec.clusterIP": svc.Spec.ClusterIP, "spec.type": string(svc.Spec.Type)}
}

// BeginCreate implements registry.AllocatingStrategy: it allocates the
// cluster IP (the requested one, or a free one when clusterIP is empty),
// the node ports and the health check node port the Service needs, and
// records them in it. Values that cannot be had are 422 Invalid, as
// upstream words them.
func (st ServiceStrategy) BeginCreate(ctx context.Context, obj runtime.Object, dryRun bool) (registry.FinishFunc, error) {
	svc := obj.(*corev1.Service)
	txn := st.newTxn(svc, dryRun)
	if err := txn.allocateClusterIP(ctx, svc); err != nil {
		return nil, txn.abort(ctx, err)
	}
	if err := txn.allocateNodePorts(ctx, svc, nil); err != nil {
		return nil, txn.abort(ctx, err)
	}
	return txn.finish, nil
}

// BeginUpdate implements registry.AllocatingStrategy: a type change that
// needs a cluster IP (from ExternalName) allocates one and one that drops
// it releases it; new node ports are allocated and removed ones released.
// Releases happen only once the update is stored.
func (st ServiceStrategy) BeginUpdate(ctx context.Context, obj, old runtime.Object, dryRun bool) (registry.FinishFunc, error) {
	svc, oldSvc := obj.(*corev1.Service), old.(*corev1.Service)
	txn := st.newTxn(svc, dryRun)
	switch {
	case needsClusterIP(svc) && !needsClusterIP(oldSvc):
		if err := txn.allocateClusterIP(ctx, svc); err != nil {
			return nil, txn.abort(ctx, err)
		}
	case !needsClusterIP(svc) && needsClusterIP(oldSvc):
		txn.releaseOnCommit(st.ClusterIPs, oldSvc.Spec.ClusterIP)
	}
	if err := txn.allocateNodePorts(ctx, svc, oldSvc); err != nil {
		return nil, txn.abort(ctx, err)
	}
	return txn.finish, nil
}

// AfterDelete implements registry.AllocatingStrategy: it frees the
// Service's cluster IP and node ports. A value that cannot be freed (etcd
// down) stays taken; upstream's repair loop, which minicp does not have,
// would find it.
func (st ServiceStrategy) AfterDelete(ctx context.Context, obj runtime.Object) {
	svc := obj.(*corev1.Service)
	// The delete has happened: freeing must not depend on the client
	// still waiting.
	ctx = context.WithoutCancel(ctx)
	if needsClusterIP(svc) {
		_ = st.ClusterIPs.Release(ctx, svc.Spec.ClusterIP)
	}
	for _, port := range usedNodePorts(svc) {
		_ = st.NodePorts.Release(ctx, strconv.Itoa(int(port)))
	}
}

// ServiceStatusStrategy is the rules of services/status: only status
// changes, so nothing is allocated.
type ServiceStatusStrategy struct{ ServiceStrategy }

// PrepareForUpdate implements registry.Strategy.
func (ServiceStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.Service).Spec = old.(*corev1.Service).Spec
}

// ValidateUpdate implements registry.Strategy.
func (ServiceStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateServiceStatusUpdate(obj.(*corev1.Service), old.(*corev1.Service))
}

// needsClusterIP reports a Service that has a cluster IP field to fill:
// any but ExternalName ("None" counts as a value).
func needsClusterIP(svc *corev1.Service) bool { return svc.Spec.Type != corev1.ServiceTypeExternalName }

// needsNodePorts reports a Service whose ports get node ports: NodePort,
// and LoadBalancer unless allocateLoadBalancerNodePorts is false.
func needsNodePorts(svc *corev1.Service) bool {
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort:
		return true
	case corev1.ServiceTypeLoadBalancer:
		return svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts
	}
	return false
}

// usedNodePorts lists the distinct node ports svc holds, the health check
// node port included.
func usedNodePorts(svc *corev1.Service) []int32 {
	var ports []int32
	for _, p := range svc.Spec.Ports {
		if p.NodePort != 0 && !slices.Contains(ports, p.NodePort) {
			ports = append(ports, p.NodePort)
		}
	}
	if hc := svc.Spec.HealthCheckNodePort; hc != 0 && !slices.Contains(ports, hc) {
		ports = append(ports, hc)
	}
	return ports
}

// normalizeClusterIPs keeps clusterIP and clusterIPs in step on update,
// for a client that knows only clusterIP: one that resubmits clusterIP
// alone keeps clusterIPs, one that clears it clears them, and one that
// changes it changes them (validation then decides).
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/service/storage (normalizeClusterIPs).
func normalizeClusterIPs(svc, old *corev1.Service) {
	spec, oldSpec := &svc.Spec, &old.Spec
	if len(oldSpec.ClusterIPs) > 0 && len(spec.ClusterIPs) == 0 && oldSpec.ClusterIP == spec.ClusterIP {
		spec.ClusterIPs = slices.Clone(oldSpec.ClusterIPs)
	}
	if spec.ClusterIP == oldSpec.ClusterIP {
		return
	}
	if oldSpec.ClusterIP != "" && spec.ClusterIP == "" && slices.Equal(spec.ClusterIPs, oldSpec.ClusterIPs) {
		spec.ClusterIPs = nil
	}
	if slices.Equal(spec.ClusterIPs, oldSpec.ClusterIPs) {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
}

// patchAllocatedValues copies from old the cluster IP and node ports a
// client left out, so resubmitting the manifest a Service was created from
// is not a change of them.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/service/storage (patchAllocatedValues).
func patchAllocatedValues(svc, old *corev1.Service) {
	if needsClusterIP(old) && needsClusterIP(svc) {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = old.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 && len(old.Spec.ClusterIPs) > 0 {
			svc.Spec.ClusterIPs = slices.Clone(old.Spec.ClusterIPs)
		}
	}
	if needsNodePorts(old) && needsNodePorts(svc) {
		used := map[int32]bool{}
		for _, p := range svc.Spec.Ports {
			used[p.NodePort] = true
		}
		byName := map[string]int32{}
		for _, p := range old.Spec.Ports {
			byName[p.Name] = p.NodePort
		}
		for i := range svc.Spec.Ports {
			p := &svc.Spec.Ports[i]
			if old, ok := byName[p.Name]; ok && p.NodePort == 0 && !used[old] {
				p.NodePort = old
				used[old] = true
			}
		}
	}
	if validation.NeedsHealthCheck(old) && validation.NeedsHealthCheck(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = old.Spec.HealthCheckNodePort
	}
}

// dropTypeDependentFields clears, on a type change, the fields the new
// type has no use for and that the client left as they were (the server
// filled most of them): the cluster IP and families leaving for
// ExternalName, node ports leaving NodePort and LoadBalancer, and the
// load balancer's fields and status.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/service (dropTypeDependentFields).
func dropTypeDependentFields(svc, old *corev1.Service) {
	spec, oldSpec := &svc.Spec, &old.Spec
	if needsClusterIP(old) && !needsClusterIP(svc) {
		if spec.ClusterIP == oldSpec.ClusterIP && slices.Equal(spec.ClusterIPs, oldSpec.ClusterIPs) {
			spec.ClusterIP, spec.ClusterIPs = "", nil
		}
		if slices.Equal(spec.IPFamilies, oldSpec.IPFamilies) {
			spec.IPFamilies = nil
		}
		if equalPtr(spec.IPFamilyPolicy, oldSpec.IPFamilyPolicy) {
			spec.IPFamilyPolicy = nil
		}
	}
	if needsNodePorts(old) && !needsNodePorts(svc) && sameNodePorts(svc, old) {
		for i := range spec.Ports {
			spec.Ports[i].NodePort = 0
		}
	}
	if validation.NeedsHealthCheck(old) && !validation.NeedsHealthCheck(svc) && spec.HealthCheckNodePort == oldSpec.HealthCheckNodePort {
		spec.HealthCheckNodePort = 0
	}
	if oldSpec.Type == corev1.ServiceTypeLoadBalancer && spec.Type != corev1.ServiceTypeLoadBalancer {
		if equalPtr(spec.AllocateLoadBalancerNodePorts, oldSpec.AllocateLoadBalancerNodePorts) {
			spec.AllocateLoadBalancerNodePorts = nil
		}
		if equalPtr(spec.LoadBalancerClass, oldSpec.LoadBalancerClass) {
			spec.LoadBalancerClass = nil
		}
	}
	if corev1.ExternallyAccessible(old) && !corev1.ExternallyAccessible(svc) && spec.ExternalTrafficPolicy == oldSpec.ExternalTrafficPolicy {
		spec.ExternalTrafficPolicy = ""
	}
	if spec.Type != corev1.ServiceTypeLoadBalancer {
		svc.Status.LoadBalancer = corev1.LoadBalancerStatus{}
	}
}

// sameNodePorts reports whether every port of svc keeps the node port of
// the port of old with the same name and port.
func sameNodePorts(svc, old *corev1.Service) bool {
	for _, p := range svc.Spec.Ports {
		for _, o := range old.Spec.Ports {
			if p.Name == o.Name && p.Port == o.Port && p.NodePort != o.NodePort {
				return false
			}
		}
	}
	return true
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
