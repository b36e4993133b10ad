package v1

import (
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Service is a stable name and virtual IP for a set of pods (its
// selector's): traffic to clusterIP:port is spread over the ready pods'
// targetPort. The API server allocates the cluster IP (and node ports);
// the endpoints controller keeps the Endpoints of the same name current;
// kube-proxy does the forwarding.
type Service struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              ServiceSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            ServiceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ServiceList is a list of Services.
type ServiceList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Service `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ServiceSpec is the desired state of a Service.
type ServiceSpec struct {
	// Ports are the ports the Service exposes; required except for
	// ExternalName and headless services.
	Ports []ServicePort `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"port" protobuf:"bytes,1,rep,name=ports"`
	// Selector picks the pods traffic goes to. Without one, the Service's
	// Endpoints are managed by someone else.
	Selector map[string]string `json:"selector,omitempty" protobuf:"bytes,2,rep,name=selector"`
	// ClusterIP is the virtual IP, allocated from the service CIDR when
	// empty, "None" for a headless service (DNS only). It may not change.
	ClusterIP string `json:"clusterIP,omitempty" protobuf:"bytes,3,opt,name=clusterIP"`
	// ClusterIPs are the IPs of each family; ClusterIPs[0] is ClusterIP.
	ClusterIPs []string `json:"clusterIPs,omitempty" protobuf:"bytes,18,opt,name=clusterIPs"`
	// Type is ClusterIP, NodePort, LoadBalancer or ExternalName. Defaults
	// to ClusterIP.
	Type ServiceType `json:"type,omitempty" protobuf:"bytes,4,opt,name=type,casttype=ServiceType"`
	// ExternalIPs are extra IPs nodes accept traffic for.
	ExternalIPs []string `json:"externalIPs,omitempty" protobuf:"bytes,5,rep,name=externalIPs"`
	// SessionAffinity is None or ClientIP. Defaults to None.
	SessionAffinity          ServiceAffinity `json:"sessionAffinity,omitempty" protobuf:"bytes,7,opt,name=sessionAffinity,casttype=ServiceAffinity"`
	LoadBalancerIP           string          `json:"loadBalancerIP,omitempty" protobuf:"bytes,8,opt,name=loadBalancerIP"`
	LoadBalancerSourceRanges []string        `json:"loadBalancerSourceRanges,omitempty" protobuf:"bytes,9,opt,name=loadBalancerSourceRanges"`
	// ExternalName is the DNS name an ExternalName service is a CNAME for.
	ExternalName string `json:"externalName,omitempty" protobuf:"bytes,10,opt,name=externalName"`
	// ExternalTrafficPolicy is Cluster or Local for services reachable from
	// outside (NodePort, LoadBalancer). Defaults to Cluster for them.
	ExternalTrafficPolicy    ServiceExternalTrafficPolicy `json:"externalTrafficPolicy,omitempty" protobuf:"bytes,11,opt,name=externalTrafficPolicy"`
	HealthCheckNodePort      int32                        `json:"healthCheckNodePort,omitempty" protobuf:"bytes,12,opt,name=healthCheckNodePort"`
	PublishNotReadyAddresses bool                         `json:"publishNotReadyAddresses,omitempty" protobuf:"varint,13,opt,name=publishNotReadyAddresses"`
	// SessionAffinityConfig holds the ClientIP affinity timeout.
	SessionAffinityConfig *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty" protobuf:"bytes,14,opt,name=sessionAffinityConfig"`
	// IPFamilies and IPFamilyPolicy say which address families the
	// Service has IPs in; minicp's service CIDR is IPv4 only.
	IPFamilies                    []IPFamily      `json:"ipFamilies,omitempty" protobuf:"bytes,19,opt,name=ipFamilies,casttype=IPFamily"`
	IPFamilyPolicy                *IPFamilyPolicy `json:"ipFamilyPolicy,omitempty" protobuf:"bytes,17,opt,name=ipFamilyPolicy,casttype=IPFamilyPolicy"`
	AllocateLoadBalancerNodePorts *bool           `json:"allocateLoadBalancerNodePorts,omitempty" protobuf:"bytes,20,opt,name=allocateLoadBalancerNodePorts"`
	LoadBalancerClass             *string         `json:"loadBalancerClass,omitempty" protobuf:"bytes,21,opt,name=loadBalancerClass"`
	// InternalTrafficPolicy is Cluster or Local. Defaults to Cluster.
	InternalTrafficPolicy *ServiceInternalTrafficPolicy `json:"internalTrafficPolicy,omitempty" protobuf:"bytes,22,opt,name=internalTrafficPolicy"`
	TrafficDistribution   *string                       `json:"trafficDistribution,omitempty" protobuf:"bytes,23,opt,name=trafficDistribution"`
}

// ServicePort is one port of a Service.
type ServicePort struct {
	// Name tells the ports apart; required when there are several.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// Protocol defaults to TCP.
	Protocol    Protocol `json:"protocol,omitempty" protobuf:"bytes,2,opt,name=protocol,casttype=Protocol"`
	AppProtocol *string  `json:"appProtocol,omitempty" protobuf:"bytes,6,opt,name=appProtocol"`
	// Port is the port on the cluster IP.
	Port int32 `json:"port" protobuf:"varint,3,opt,name=port"`
	// TargetPort is the pods' port: a number, or the name of a container
	// port. Defaults to Port.
	TargetPort intstr.IntOrString `json:"targetPort,omitempty" protobuf:"bytes,4,opt,name=targetPort"`
	// NodePort is the port on every node, for NodePort and LoadBalancer
	// services; allocated from 30000-32767 when 0.
	NodePort int32 `json:"nodePort,omitempty" protobuf:"varint,5,opt,name=nodePort"`
}

// ServiceStatus is the observed state of a Service.
type ServiceStatus struct {
	// LoadBalancer is what a cloud load balancer reports.
	LoadBalancer LoadBalancerStatus `json:"loadBalancer,omitempty" protobuf:"bytes,1,opt,name=loadBalancer"`
	Conditions   []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,2,rep,name=conditions"`
}

// LoadBalancerStatus lists a load balancer's ingress points.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty" protobuf:"bytes,1,rep,name=ingress"`
}

// LoadBalancerIngress is one ingress point of a load balancer: an IP or a
// host name.
type LoadBalancerIngress struct {
	IP       string              `json:"ip,omitempty" protobuf:"bytes,1,opt,name=ip"`
	Hostname string              `json:"hostname,omitempty" protobuf:"bytes,2,opt,name=hostname"`
	IPMode   *LoadBalancerIPMode `json:"ipMode,omitempty" protobuf:"bytes,3,opt,name=ipMode"`
	Ports    []PortStatus        `json:"ports,omitempty" protobuf:"bytes,4,rep,name=ports"`
}

// PortStatus reports the state of one port of a load balancer.
type PortStatus struct {
	Port     int32    `json:"port" protobuf:"varint,1,opt,name=port"`
	Protocol Protocol `json:"protocol" protobuf:"bytes,2,opt,name=protocol,casttype=Protocol"`
	Error    *string  `json:"error,omitempty" protobuf:"bytes,3,opt,name=error"`
}

// SessionAffinityConfig configures session affinity.
type SessionAffinityConfig struct {
	ClientIP *ClientIPConfig `json:"clientIP,omitempty" protobuf:"bytes,1,opt,name=clientIP"`
}

// ClientIPConfig is the ClientIP affinity's timeout.
type ClientIPConfig struct {
	// TimeoutSeconds defaults to 10800 (3 hours).
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,1,opt,name=timeoutSeconds"`
}

// ServiceType says how a Service is exposed.
type ServiceType string

// The service types.
const (
	// ServiceTypeClusterIP: a virtual IP reachable inside the cluster.
	ServiceTypeClusterIP ServiceType = "ClusterIP"
	// ServiceTypeNodePort: a cluster IP, plus a port on every node.
	ServiceTypeNodePort ServiceType = "NodePort"
	// ServiceTypeLoadBalancer: a node port, plus a cloud load balancer.
	ServiceTypeLoadBalancer ServiceType = "LoadBalancer"
	// ServiceTypeExternalName: a DNS CNAME to spec.externalName, no IP.
	ServiceTypeExternalName ServiceType = "ExternalName"
)

// ServiceAffinity says whether a client sticks to one pod.
type ServiceAffinity string

// The session affinities.
const (
	ServiceAffinityClientIP ServiceAffinity = "ClientIP"
	ServiceAffinityNone     ServiceAffinity = "None"
)

// DefaultClientIPServiceAffinitySeconds is the ClientIP affinity timeout
// of services that give none: 3 hours.
const DefaultClientIPServiceAffinitySeconds int32 = 10800

// ClusterIPNone makes a Service headless.
const ClusterIPNone = "None"

// ServiceExternalTrafficPolicy says whether external traffic may leave the
// node it arrived on.
type ServiceExternalTrafficPolicy string

// The external traffic policies.
const (
	ServiceExternalTrafficPolicyCluster ServiceExternalTrafficPolicy = "Cluster"
	ServiceExternalTrafficPolicyLocal   ServiceExternalTrafficPolicy = "Local"
)

// ServiceInternalTrafficPolicy says whether in-cluster traffic may leave
// the node it started on.
type ServiceInternalTrafficPolicy string

// The internal traffic policies.
const (
	ServiceInternalTrafficPolicyCluster ServiceInternalTrafficPolicy = "Cluster"
	ServiceInternalTrafficPolicyLocal   ServiceInternalTrafficPolicy = "Local"
)

// IPFamily is an address family.
type IPFamily string

// The IP families.
const (
	IPv4Protocol IPFamily = "IPv4"
	IPv6Protocol IPFamily = "IPv6"
)

// IPFamilyPolicy says how many families a Service gets IPs in.
type IPFamilyPolicy string

// The IP family policies.
const (
	IPFamilyPolicySingleStack      IPFamilyPolicy = "SingleStack"
	IPFamilyPolicyPreferDualStack  IPFamilyPolicy = "PreferDualStack"
	IPFamilyPolicyRequireDualStack IPFamilyPolicy = "RequireDualStack"
)

// LoadBalancerIPMode says how a load balancer's IP reaches the nodes.
type LoadBalancerIPMode string
