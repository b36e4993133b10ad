package apiserver

import (
	"context"
	"fmt"
	"reflect"
	"strconv"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
)

// reconcileKubernetesEndpointSlices writes the EndpointSlices of the
// kubernetes Service from its Endpoints ep, as kube-apiserver's endpoint
// reconciler writes both: kube-proxy and cluster DNS read slices, and
// the EndpointSlice controller leaves a Service without a selector
// alone. The slice of ep's first subset is named "kubernetes", as
// upstream names it; API servers of the same prefix on other ports (one
// subset each, see EnsureKubernetesService) get "kubernetes-<port>",
// since a slice's ports hold for all of its endpoints. The slices carry
// only the kubernetes.io/service-name label, no managed-by: upstream
// leaves it off, and so the EndpointSlice controller never claims them.
// A slice is written only when it differs.
//
// Upstream: k8s.io/kubernetes/pkg/controlplane/reconcilers
// (EndpointsAdapter.Sync, updateEndpointSlice).
func (s *Server) reconcileKubernetesEndpointSlices(ctx context.Context, ep *corev1.Endpoints) error {
	slices, ok := s.Store(discoveryv1.SchemeGroupVersion.WithResource("endpointslices"))
	if !ok {
		return fmt.Errorf("endpointslices are not served")
	}
	for i, ss := range ep.Subsets {
		name := KubernetesServiceName
		if i > 0 && len(ss.Ports) > 0 {
			name += "-" + strconv.Itoa(int(ss.Ports[0].Port))
		}
		want := kubernetesEndpointSlice(name, ss)
		_, _, err := slices.Update(ctx, metav1.NamespaceDefault, name, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
			if old == nil {
				return want, nil
			}
			cur := old.(*discoveryv1.EndpointSlice).DeepCopy()
			if reflect.DeepEqual(cur.Endpoints, want.Endpoints) && reflect.DeepEqual(cur.Ports, want.Ports) &&
				reflect.DeepEqual(cur.Labels, want.Labels) && cur.AddressType == want.AddressType {
				return old, nil
			}
			cur.Labels, cur.AddressType, cur.Endpoints, cur.Ports = want.Labels, want.AddressType, want.Endpoints, want.Ports
			return cur, nil
		}, nil, nil, registry.UpdateOptions{ForceAllowCreate: true})
		if err != nil {
			return fmt.Errorf("update endpointslice %s: %w", name, err)
		}
	}
	return nil
}

// kubernetesEndpointSlice is the slice of one subset of the kubernetes
// Endpoints: every address ready, the subset's ports.
func kubernetesEndpointSlice(name string, ss corev1.EndpointSubset) *discoveryv1.EndpointSlice {
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault,
			Labels: map[string]string{discoveryv1.LabelServiceName: KubernetesServiceName}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   make([]discoveryv1.Endpoint, 0, len(ss.Addresses)),
		Ports:       make([]discoveryv1.EndpointPort, 0, len(ss.Ports)),
	}
	for _, a := range ss.Addresses {
		ready := true
		slice.Endpoints = append(slice.Endpoints, discoveryv1.Endpoint{
			Addresses: []string{a.IP}, Conditions: discoveryv1.EndpointConditions{Ready: &ready},
		})
	}
	for _, p := range ss.Ports {
		slice.Ports = append(slice.Ports, discoveryv1.EndpointPort{Name: &p.Name, Port: &p.Port, Protocol: &p.Protocol})
	}
	return slice
}
