package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// SetDefaults fills in what a client may leave out of an EndpointSlice,
// in place: each port's name is "" and its protocol TCP. Other kinds are
// left alone.
//
// Upstream: k8s.io/kubernetes/pkg/apis/discovery/v1 (SetDefaults_EndpointPort).
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *EndpointSlice:
		defaultPorts(o.Ports)
	case *EndpointSliceList:
		for i := range o.Items {
			defaultPorts(o.Items[i].Ports)
		}
	}
}

func defaultPorts(ports []EndpointPort) {
	for i := range ports {
		p := &ports[i]
		if p.Name == nil {
			p.Name = new("")
		}
		if p.Protocol == nil {
			p.Protocol = new(corev1.ProtocolTCP)
		}
	}
}
