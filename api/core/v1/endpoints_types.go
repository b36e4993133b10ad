package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Endpoints are the addresses behind a Service of the same name: the
// endpoints controller writes the IPs and ports of the pods its selector
// matches, ready ones in Addresses and the others in NotReadyAddresses;
// kube-proxy forwards to the ready ones.
type Endpoints struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Subsets           []EndpointSubset `json:"subsets,omitempty" protobuf:"bytes,2,rep,name=subsets"`
}

// EndpointsList is a list of Endpoints.
type EndpointsList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Endpoints `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// EndpointSubset is a group of addresses that all serve the same ports:
// every address with every port is an endpoint.
type EndpointSubset struct {
	Addresses         []EndpointAddress `json:"addresses,omitempty" protobuf:"bytes,1,rep,name=addresses"`
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty" protobuf:"bytes,2,rep,name=notReadyAddresses"`
	Ports             []EndpointPort    `json:"ports,omitempty" protobuf:"bytes,3,rep,name=ports"`
}

// EndpointAddress is one backend: usually a pod's IP, with the pod as
// TargetRef.
type EndpointAddress struct {
	IP        string           `json:"ip" protobuf:"bytes,1,opt,name=ip"`
	Hostname  string           `json:"hostname,omitempty" protobuf:"bytes,3,opt,name=hostname"`
	NodeName  *string          `json:"nodeName,omitempty" protobuf:"bytes,4,opt,name=nodeName"`
	TargetRef *ObjectReference `json:"targetRef,omitempty" protobuf:"bytes,2,opt,name=targetRef"`
}

// EndpointPort is one port of the addresses of a subset; Name matches the
// Service port's name.
type EndpointPort struct {
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Port int32  `json:"port" protobuf:"varint,2,opt,name=port"`
	// Protocol defaults to TCP.
	Protocol    Protocol `json:"protocol,omitempty" protobuf:"bytes,3,opt,name=protocol,casttype=Protocol"`
	AppProtocol *string  `json:"appProtocol,omitempty" protobuf:"bytes,4,opt,name=appProtocol"`
}
