package apiserver_test

import (
	"net/http"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
)

// TestKubernetesEndpointSlices checks that the kubernetes Service's
// EndpointSlices follow its Endpoints, as kube-proxy and DNS read them:
// one slice per port of the API servers of the prefix, every address
// ready, and no write when nothing changed.
func TestKubernetesEndpointSlices(t *testing.T) {
	s := newTestServer(t)
	const slicePath = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/"
	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("127.0.0.1:6443")))
	first := decode[discoveryv1.EndpointSlice](t, s.mustDo(http.StatusOK, "GET", slicePath+"kubernetes", ""))

	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("127.0.0.1:6443")))
	again := decode[discoveryv1.EndpointSlice](t, s.mustDo(http.StatusOK, "GET", slicePath+"kubernetes", ""))
	assert.Equal(t, first.ResourceVersion, again.ResourceVersion, "an unchanged slice is not written again")

	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("10.0.0.2:6443")))
	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("127.0.0.1:7443")))

	ready := true
	name, proto := "https", corev1.ProtocolTCP
	port, port2 := int32(6443), int32(7443)
	slice := decode[discoveryv1.EndpointSlice](t, s.mustDo(http.StatusOK, "GET", slicePath+"kubernetes", ""))
	assert.Equal(t, map[string]string{discoveryv1.LabelServiceName: "kubernetes"}, slice.Labels, "no managed-by label, as upstream")
	assert.Equal(t, discoveryv1.AddressTypeIPv4, slice.AddressType)
	assert.Equal(t, []discoveryv1.Endpoint{
		{Addresses: []string{"127.0.0.1"}, Conditions: discoveryv1.EndpointConditions{Ready: &ready}},
		{Addresses: []string{"10.0.0.2"}, Conditions: discoveryv1.EndpointConditions{Ready: &ready}},
	}, slice.Endpoints)
	assert.Equal(t, []discoveryv1.EndpointPort{{Name: &name, Port: &port, Protocol: &proto}}, slice.Ports)

	other := decode[discoveryv1.EndpointSlice](t, s.mustDo(http.StatusOK, "GET", slicePath+"kubernetes-7443", ""))
	assert.Equal(t, []discoveryv1.EndpointPort{{Name: &name, Port: &port2, Protocol: &proto}}, other.Ports, "the server on another port")
	assert.Len(t, other.Endpoints, 1)

	list := decode[discoveryv1.EndpointSliceList](t, s.mustDo(http.StatusOK, "GET",
		"/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dkubernetes", ""))
	assert.Len(t, list.Items, 2, "readers find both by the service-name label")
}
