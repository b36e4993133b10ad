package apiserver

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
)

// KubernetesServiceName is the Service in default through which pods reach
// the API server.
const KubernetesServiceName = "kubernetes"

// kubernetesServiceIP is the first IP of the default service CIDR, which
// random allocations never hand out: every cluster's API is at .1.
const kubernetesServiceIP = "10.96.0.1"

// kubernetesServicePort is the port the kubernetes Service exposes,
// https's, whatever port the API server listens on.
const kubernetesServicePort = 443

// EnsureKubernetesService creates the kubernetes Service in default
// (10.96.0.1:443, named port https) if it does not exist, and makes its
// Endpoints hold addr, the API server's address, and its EndpointSlices
// the same (reconcileKubernetesEndpointSlices): what kube-apiserver's
// bootstrap controller does, so that pods reach the API at a stable
// in-cluster address through kube-proxy. Addresses of other API servers
// sharing the etcd prefix are kept. An unspecified IP (a server listening on 0.0.0.0)
// is advertised as 127.0.0.1. It is safe to call from many servers at once.
//
// Upstream: k8s.io/kubernetes/pkg/controlplane/controller/kubernetesservice
// and the endpoint reconciler of k8s.io/kubernetes/pkg/controlplane/reconcilers.
func (s *Server) EnsureKubernetesService(ctx context.Context, addr netip.AddrPort) error {
	ip := addr.Addr().Unmap()
	if ip.IsUnspecified() {
		ip = netip.MustParseAddr("127.0.0.1")
	}
	port := int32(addr.Port())
	services, ok := s.Store(gvrServices)
	if !ok {
		return fmt.Errorf("services are not served")
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: KubernetesServiceName, Namespace: metav1.NamespaceDefault,
			Labels: map[string]string{"component": "apiserver", "provider": "kubernetes"}},
		Spec: corev1.ServiceSpec{
			ClusterIP: kubernetesServiceIP,
			Ports: []corev1.ServicePort{{Name: "https", Port: kubernetesServicePort, Protocol: corev1.ProtocolTCP,
				TargetPort: intstr.FromInt32(port)}},
		},
	}
	// Look first: creating allocates the IP before it finds the name
	// taken, and would fail on the IP instead.
	_, err := services.Get(ctx, metav1.NamespaceDefault, KubernetesServiceName)
	if apierrors.IsNotFound(err) {
		// The store does not run admission: default as it would.
		SetDefaults(svc)
		_, err = services.Create(ctx, svc, nil, registry.CreateOptions{})
		if err != nil {
			// Another API server of the prefix may have won the race.
			if _, getErr := services.Get(ctx, metav1.NamespaceDefault, KubernetesServiceName); getErr == nil {
				err = nil
			}
		}
	}
	if err != nil {
		return fmt.Errorf("create service %s: %w", KubernetesServiceName, err)
	}
	endpoints, ok := s.Store(corev1.SchemeGroupVersion.WithResource("endpoints"))
	if !ok {
		return fmt.Errorf("endpoints are not served")
	}
	address := corev1.EndpointAddress{IP: ip.String()}
	epPort := corev1.EndpointPort{Name: "https", Port: port, Protocol: corev1.ProtocolTCP}
	out, _, err := endpoints.Update(ctx, metav1.NamespaceDefault, KubernetesServiceName, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
		ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: KubernetesServiceName, Namespace: metav1.NamespaceDefault,
			Labels: map[string]string{"endpointslice.kubernetes.io/skip-mirror": "true"}}}
		if old != nil {
			ep = old.(*corev1.Endpoints).DeepCopy()
		}
		// One subset per port: every API server of the prefix listens on
		// its own, so a server adds its own subset or its address to it.
		for i := range ep.Subsets {
			ss := &ep.Subsets[i]
			if slices.Equal(ss.Ports, []corev1.EndpointPort{epPort}) {
				if !slices.ContainsFunc(ss.Addresses, func(a corev1.EndpointAddress) bool { return a.IP == address.IP }) {
					ss.Addresses = append(ss.Addresses, address)
				}
				return ep, nil
			}
		}
		ep.Subsets = append(ep.Subsets, corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{address}, Ports: []corev1.EndpointPort{epPort}})
		return ep, nil
	}, nil, nil, registry.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update endpoints %s: %w", KubernetesServiceName, err)
	}
	return s.reconcileKubernetesEndpointSlices(ctx, out.(*corev1.Endpoints))
}
