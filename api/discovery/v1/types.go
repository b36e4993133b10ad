package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Well-known labels of EndpointSlices.
const (
	// LabelServiceName names the Service a slice belongs to: how readers
	// find every slice of one Service.
	LabelServiceName = "kubernetes.io/service-name"
	// LabelManagedBy names the controller that writes a slice, so that
	// several writers (the EndpointSlice controller, a mirroring one, a
	// user's) never fight over one.
	LabelManagedBy = "endpointslice.kubernetes.io/managed-by"
)

// EndpointSlice is a subset of the endpoints of a Service. A Service may
// have many; a reader joins every slice labelled with its name.
type EndpointSlice struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// AddressType is the kind of every address in the slice: IPv4, IPv6
	// or FQDN. It cannot change once the slice exists.
	AddressType AddressType `json:"addressType" protobuf:"bytes,4,rep,name=addressType"`
	// Endpoints are the slice's endpoints, at most 1000.
	Endpoints []Endpoint `json:"endpoints" protobuf:"bytes,2,rep,name=endpoints"`
	// Ports are the ports every endpoint of the slice serves, each with a
	// unique name. A nil Port means every port.
	Ports []EndpointPort `json:"ports" protobuf:"bytes,3,rep,name=ports"`
}

// AddressType is the kind of the addresses of a slice.
type AddressType string

// The address types.
const (
	AddressTypeIPv4 = AddressType(corev1.IPv4Protocol)
	AddressTypeIPv6 = AddressType(corev1.IPv6Protocol)
	AddressTypeFQDN = AddressType("FQDN")
)

// Endpoint is one backend of a Service: usually a pod.
type Endpoint struct {
	// Addresses are the endpoint's addresses, all of the slice's type.
	// Readers use the first: the others are interchangeable.
	Addresses []string `json:"addresses" protobuf:"bytes,1,rep,name=addresses"`
	// Conditions say whether the endpoint takes traffic.
	Conditions EndpointConditions `json:"conditions,omitempty" protobuf:"bytes,2,opt,name=conditions"`
	// Hostname is the endpoint's DNS label under a headless Service (a
	// pod's spec.hostname when its subdomain names the Service).
	Hostname *string `json:"hostname,omitempty" protobuf:"bytes,3,opt,name=hostname"`
	// TargetRef is the object behind the endpoint: a Pod.
	TargetRef *corev1.ObjectReference `json:"targetRef,omitempty" protobuf:"bytes,4,opt,name=targetRef"`
	// DeprecatedTopology is the topology labels of v1beta1; never written.
	DeprecatedTopology map[string]string `json:"deprecatedTopology,omitempty" protobuf:"bytes,5,opt,name=deprecatedTopology"`
	// NodeName is the node the endpoint runs on: what
	// externalTrafficPolicy and internalTrafficPolicy Local look at.
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,6,opt,name=nodeName"`
	// Zone is the zone the endpoint is in.
	Zone *string `json:"zone,omitempty" protobuf:"bytes,7,opt,name=zone"`
	// Hints are for topology-aware routing.
	Hints *EndpointHints `json:"hints,omitempty" protobuf:"bytes,8,opt,name=hints"`
}

// EndpointConditions are the states of an endpoint. A nil condition is
// unknown, which readers take as true for Ready and Serving.
type EndpointConditions struct {
	// Ready is whether new connections may go to the endpoint: serving
	// and not terminating (or the Service publishes not-ready addresses).
	Ready *bool `json:"ready,omitempty" protobuf:"bytes,1,name=ready"`
	// Serving is the pod's readiness, whether or not it is terminating.
	Serving *bool `json:"serving,omitempty" protobuf:"bytes,2,name=serving"`
	// Terminating is whether the pod is being deleted.
	Terminating *bool `json:"terminating,omitempty" protobuf:"bytes,3,name=terminating"`
}

// EndpointHints say where an endpoint should be used from.
type EndpointHints struct {
	ForZones []ForZone `json:"forZones,omitempty" protobuf:"bytes,1,name=forZones"`
	ForNodes []ForNode `json:"forNodes,omitempty" protobuf:"bytes,2,name=forNodes"`
}

// ForZone names a zone a hinted endpoint is for.
type ForZone struct {
	Name string `json:"name" protobuf:"bytes,1,name=name"`
}

// ForNode names a node a hinted endpoint is for.
type ForNode struct {
	Name string `json:"name" protobuf:"bytes,1,name=name"`
}

// EndpointPort is a port of the endpoints of a slice: a Service port
// resolved to the number the pods listen on.
type EndpointPort struct {
	// Name is the Service port's name; "" for a Service's only, unnamed
	// port.
	Name *string `json:"name,omitempty" protobuf:"bytes,1,name=name"`
	// Protocol defaults to TCP.
	Protocol *corev1.Protocol `json:"protocol,omitempty" protobuf:"bytes,2,name=protocol"`
	// Port is the port number; nil means every port.
	Port        *int32  `json:"port,omitempty" protobuf:"bytes,3,opt,name=port"`
	AppProtocol *string `json:"appProtocol,omitempty" protobuf:"bytes,4,name=appProtocol"`
}

// EndpointSliceList is a list of EndpointSlices.
type EndpointSliceList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []EndpointSlice `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DeepCopyObject implements runtime.Object.
func (s *EndpointSlice) DeepCopyObject() runtime.Object { return runtime.DeepCopy(s) }

// DeepCopy returns a deep copy.
func (s *EndpointSlice) DeepCopy() *EndpointSlice { return runtime.DeepCopy(s) }

// DeepCopyObject implements runtime.Object.
func (l *EndpointSliceList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }
