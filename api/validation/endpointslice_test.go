package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestValidateEndpointSlice(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*discoveryv1.EndpointSlice)
		want   []string
	}{
		{name: "valid", mutate: func(*discoveryv1.EndpointSlice) {}, want: []string{}},
		{name: "no address type", mutate: func(s *discoveryv1.EndpointSlice) { s.AddressType = "" },
			want: []string{"FieldValueRequired addressType"}},
		{name: "unknown address type", mutate: func(s *discoveryv1.EndpointSlice) { s.AddressType = "IP" },
			want: []string{"FieldValueNotSupported addressType"}},
		{name: "IPv6 address in IPv4 slice", mutate: func(s *discoveryv1.EndpointSlice) { s.Endpoints[0].Addresses = []string{"fd00::1"} },
			want: []string{"FieldValueInvalid endpoints[0].addresses[0]"}},
		{name: "no addresses", mutate: func(s *discoveryv1.EndpointSlice) { s.Endpoints[0].Addresses = nil },
			want: []string{"FieldValueRequired endpoints[0].addresses"}},
		{name: "too many addresses", mutate: func(s *discoveryv1.EndpointSlice) {
			s.Endpoints[0].Addresses = make([]string, 101)
			for i := range s.Endpoints[0].Addresses {
				s.Endpoints[0].Addresses[i] = "10.244.0.1"
			}
		}, want: []string{"FieldValueTooMany endpoints[0].addresses"}},
		{name: "too many endpoints", mutate: func(s *discoveryv1.EndpointSlice) {
			s.Endpoints = make([]discoveryv1.Endpoint, 1001)
		}, want: []string{"FieldValueTooMany endpoints"}},
		{name: "bad hostname", mutate: func(s *discoveryv1.EndpointSlice) { s.Endpoints[0].Hostname = new("Web_0") },
			want: []string{"FieldValueInvalid endpoints[0].hostname"}},
		{name: "bad node name", mutate: func(s *discoveryv1.EndpointSlice) { s.Endpoints[0].NodeName = new("Node!") },
			want: []string{"FieldValueInvalid endpoints[0].nodeName"}},
		{name: "FQDN", mutate: func(s *discoveryv1.EndpointSlice) {
			s.AddressType = discoveryv1.AddressTypeFQDN
			s.Endpoints[0].Addresses = []string{"db.example.com"}
		}, want: []string{}},
		{name: "FQDN of one label", mutate: func(s *discoveryv1.EndpointSlice) {
			s.AddressType = discoveryv1.AddressTypeFQDN
			s.Endpoints[0].Addresses = []string{"db"}
		}, want: []string{"FieldValueInvalid endpoints[0].addresses[0]"}},
		{name: "duplicate port names", mutate: func(s *discoveryv1.EndpointSlice) { s.Ports = append(s.Ports, s.Ports[0]) },
			want: []string{"FieldValueDuplicate ports[1].name"}},
		{name: "bad protocol", mutate: func(s *discoveryv1.EndpointSlice) { s.Ports[0].Protocol = new(corev1.Protocol("HTTP")) },
			want: []string{"FieldValueNotSupported ports[0].protocol"}},
		{name: "bad port name", mutate: func(s *discoveryv1.EndpointSlice) { s.Ports[0].Name = new(strings.Repeat("a", 64)) },
			want: []string{"FieldValueInvalid ports[0].name"}},
		{name: "bad name", mutate: func(s *discoveryv1.EndpointSlice) { s.Name = "Web" },
			want: []string{"FieldValueInvalid metadata.name"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &discoveryv1.EndpointSlice{
				ObjectMeta:  metav1.ObjectMeta{Name: "web-abcde", Namespace: "default"},
				AddressType: discoveryv1.AddressTypeIPv4,
				Endpoints: []discoveryv1.Endpoint{{
					Addresses: []string{"10.244.0.5"}, Conditions: discoveryv1.EndpointConditions{Ready: new(true)},
					NodeName: new("minicp-node-1"),
				}},
				Ports: []discoveryv1.EndpointPort{{Name: new("http"), Port: new(int32(80))}},
			}
			discoveryv1.SetDefaults(s)
			tc.mutate(s)
			got := ValidateEndpointSlice(s)
			assert.Equal(t, tc.want, summary(got), "ValidateEndpointSlice(%s): %v", tc.name, got)
		})
	}
}

func TestValidateEndpointSliceUpdateKeepsAddressType(t *testing.T) {
	old := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: "web-abcde", Namespace: "default", ResourceVersion: "1"},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	updated := old.DeepCopy()
	updated.AddressType = discoveryv1.AddressTypeIPv6
	assert.Equal(t, []string{"FieldValueInvalid addressType"}, summary(ValidateEndpointSliceUpdate(updated, old)))
}
