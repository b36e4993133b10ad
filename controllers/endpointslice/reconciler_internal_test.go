package endpointslice

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestPlaceholderIsKept: a Service without endpoints keeps the one
// placeholder slice it has, with no write, so a pass over an idle Service
// does not cause another.
func TestPlaceholderIsKept(t *testing.T) {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-dns", Namespace: "kube-system", UID: "u1"},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP}}},
	}
	first := reconcileSlices(svc, nil, map[string]*group{})
	if assert.Len(t, first.create, 1, "a Service without endpoints gets a placeholder") {
		placeholder := first.create[0]
		placeholder.Name = "kube-dns-abcde"
		placeholder.ResourceVersion = "7"
		again := reconcileSlices(svc, []*discoveryv1.EndpointSlice{placeholder}, map[string]*group{})
		assert.Empty(t, again.create, "no second placeholder")
		assert.Empty(t, again.delete, "the placeholder is not deleted")
		assert.Empty(t, again.update, "the placeholder needs no write")
	}
}
