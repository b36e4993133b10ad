package endpoints_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/endpoints"
)

func addr(ip, uid string) corev1.EndpointAddress {
	return corev1.EndpointAddress{IP: ip, TargetRef: &corev1.ObjectReference{Kind: "Pod", UID: uid}}
}

func TestRepackSubsets(t *testing.T) {
	http, https := tcp("http", 80), tcp("https", 443)
	dns := corev1.EndpointPort{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP}
	tests := []struct {
		name string
		in   []corev1.EndpointSubset
		want []corev1.EndpointSubset
	}{
		{name: "nothing", in: nil, want: nil},
		{name: "ports without addresses vanish", in: []corev1.EndpointSubset{{Ports: []corev1.EndpointPort{http}}}, want: nil},
		{
			name: "one address per port, grouped by address set",
			in: []corev1.EndpointSubset{
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.10", "b")}, Ports: []corev1.EndpointPort{https}},
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.9", "a")}, Ports: []corev1.EndpointPort{http}},
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.10", "b")}, Ports: []corev1.EndpointPort{http}},
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.9", "a")}, Ports: []corev1.EndpointPort{https}},
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.9", "a")}, Ports: []corev1.EndpointPort{dns}},
			},
			want: []corev1.EndpointSubset{
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.9", "a")}, Ports: []corev1.EndpointPort{dns}},
				// 10.0.0.9 before 10.0.0.10: numerically, not as strings.
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.9", "a"), addr("10.0.0.10", "b")}, Ports: []corev1.EndpointPort{http, https}},
			},
		},
		{
			name: "not ready wins over ready for the same port",
			in: []corev1.EndpointSubset{
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []corev1.EndpointPort{http}},
				{NotReadyAddresses: []corev1.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []corev1.EndpointPort{http}},
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []corev1.EndpointPort{http}},
			},
			want: []corev1.EndpointSubset{{NotReadyAddresses: []corev1.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []corev1.EndpointPort{http}}},
		},
		{
			name: "one IP, two pods (host network)",
			in: []corev1.EndpointSubset{
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.1", "b"), addr("10.0.0.1", "a")}, Ports: []corev1.EndpointPort{http}},
			},
			want: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("10.0.0.1", "a"), addr("10.0.0.1", "b")}, Ports: []corev1.EndpointPort{http}}},
		},
		{
			name: "addresses without ports stay (headless)",
			in: []corev1.EndpointSubset{
				{Addresses: []corev1.EndpointAddress{addr("10.0.0.2", "b")}},
				{NotReadyAddresses: []corev1.EndpointAddress{addr("10.0.0.1", "a")}},
			},
			want: []corev1.EndpointSubset{{
				Addresses:         []corev1.EndpointAddress{addr("10.0.0.2", "b")},
				NotReadyAddresses: []corev1.EndpointAddress{addr("10.0.0.1", "a")},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]corev1.EndpointSubset(nil), tc.in...)
			got := endpoints.RepackSubsets(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, in, tc.in, "input modified")
			// The result is canonical: repacking it, or the input in
			// reverse, gives it again.
			assert.Equal(t, got, endpoints.RepackSubsets(got), "repack of the result")
			rev := append([]corev1.EndpointSubset(nil), tc.in...)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			assert.Equal(t, tc.want, endpoints.RepackSubsets(rev), "reversed input")
		})
	}
}
