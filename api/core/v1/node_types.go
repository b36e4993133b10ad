package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Node is a machine that runs pods. The kubelet registers it and reports
// its status; the scheduler places pods on it.
type Node struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              NodeSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            NodeStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NodeList is a list of Nodes.
type NodeList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Node `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// NodeSpec is the desired state of a Node.
type NodeSpec struct {
	PodCIDR  string   `json:"podCIDR,omitempty" protobuf:"bytes,1,opt,name=podCIDR"`
	PodCIDRs []string `json:"podCIDRs,omitempty" protobuf:"bytes,7,opt,name=podCIDRs" patchStrategy:"merge"`
	// ProviderID is "<provider>://<id>"; once set it cannot change.
	ProviderID string `json:"providerID,omitempty" protobuf:"bytes,3,opt,name=providerID"`
	// Unschedulable cordons the node: no new pods are scheduled onto it.
	Unschedulable bool    `json:"unschedulable,omitempty" protobuf:"varint,4,opt,name=unschedulable"`
	Taints        []Taint `json:"taints,omitempty" protobuf:"bytes,5,opt,name=taints"`
	// DoNotUseExternalID is deprecated and ignored; it is kept so old
	// manifests decode.
	DoNotUseExternalID string `json:"externalID,omitempty" protobuf:"bytes,2,opt,name=externalID"`
}

// NodeStatus is the observed state of a Node, reported by its kubelet.
type NodeStatus struct {
	// Capacity is what the node has; Allocatable what pods may use
	// (defaults to Capacity).
	Capacity        ResourceList         `json:"capacity,omitempty" protobuf:"bytes,1,rep,name=capacity,casttype=ResourceList,castkey=ResourceName"`
	Allocatable     ResourceList         `json:"allocatable,omitempty" protobuf:"bytes,2,rep,name=allocatable,casttype=ResourceList,castkey=ResourceName"`
	Phase           NodePhase            `json:"phase,omitempty" protobuf:"bytes,3,opt,name=phase,casttype=NodePhase"`
	Conditions      []NodeCondition      `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,4,rep,name=conditions"`
	Addresses       []NodeAddress        `json:"addresses,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,5,rep,name=addresses"`
	DaemonEndpoints NodeDaemonEndpoints  `json:"daemonEndpoints,omitempty" protobuf:"bytes,6,opt,name=daemonEndpoints"`
	NodeInfo        NodeSystemInfo       `json:"nodeInfo,omitempty" protobuf:"bytes,7,opt,name=nodeInfo"`
	Images          []ContainerImage     `json:"images,omitempty" protobuf:"bytes,8,rep,name=images"`
	VolumesInUse    []UniqueVolumeName   `json:"volumesInUse,omitempty" protobuf:"bytes,9,rep,name=volumesInUse"`
	VolumesAttached []AttachedVolume     `json:"volumesAttached,omitempty" protobuf:"bytes,10,rep,name=volumesAttached"`
	RuntimeHandlers []NodeRuntimeHandler `json:"runtimeHandlers,omitempty" protobuf:"bytes,12,rep,name=runtimeHandlers"`
	Features        *NodeFeatures        `json:"features,omitempty" protobuf:"bytes,13,rep,name=features"`
}

// NodePhase is the deprecated lifecycle phase of a Node.
type NodePhase string

// The node phases.
const (
	NodePending    NodePhase = "Pending"
	NodeRunning    NodePhase = "Running"
	NodeTerminated NodePhase = "Terminated"
)

// NodeConditionType names a node condition.
type NodeConditionType string

// The node conditions the kubelet reports.
const (
	// NodeReady is True when the node can run pods; the node lifecycle
	// controller sets it Unknown when heartbeats stop.
	NodeReady              NodeConditionType = "Ready"
	NodeMemoryPressure     NodeConditionType = "MemoryPressure"
	NodeDiskPressure       NodeConditionType = "DiskPressure"
	NodePIDPressure        NodeConditionType = "PIDPressure"
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeCondition is one observation about a Node.
type NodeCondition struct {
	Type   NodeConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=NodeConditionType"`
	Status ConditionStatus   `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	// LastHeartbeatTime is the last time the kubelet confirmed the
	// condition.
	LastHeartbeatTime  metav1.Time `json:"lastHeartbeatTime,omitempty" protobuf:"bytes,3,opt,name=lastHeartbeatTime"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string      `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string      `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=NodeAddressType"`
	Address string          `json:"address" protobuf:"bytes,2,opt,name=address"`
}

// NodeAddressType says what kind of address a NodeAddress is.
type NodeAddressType string

// The node address types.
const (
	NodeHostName    NodeAddressType = "Hostname"
	NodeInternalIP  NodeAddressType = "InternalIP"
	NodeExternalIP  NodeAddressType = "ExternalIP"
	NodeInternalDNS NodeAddressType = "InternalDNS"
	NodeExternalDNS NodeAddressType = "ExternalDNS"
)

// NodeDaemonEndpoints are the ports of the node's daemons.
type NodeDaemonEndpoints struct {
	KubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitempty" protobuf:"bytes,1,opt,name=kubeletEndpoint"`
}

// DaemonEndpoint is a daemon's port. The capital "Port" is upstream's
// spelling on the wire.
type DaemonEndpoint struct {
	Port int32 `json:"Port" protobuf:"varint,1,opt,name=Port"`
}

// NodeSystemInfo describes the node's machine and software. Every field is
// always written, as upstream writes it.
type NodeSystemInfo struct {
	MachineID               string          `json:"machineID" protobuf:"bytes,1,opt,name=machineID"`
	SystemUUID              string          `json:"systemUUID" protobuf:"bytes,2,opt,name=systemUUID"`
	BootID                  string          `json:"bootID" protobuf:"bytes,3,opt,name=bootID"`
	KernelVersion           string          `json:"kernelVersion" protobuf:"bytes,4,opt,name=kernelVersion"`
	OSImage                 string          `json:"osImage" protobuf:"bytes,5,opt,name=osImage"`
	ContainerRuntimeVersion string          `json:"containerRuntimeVersion" protobuf:"bytes,6,opt,name=containerRuntimeVersion"`
	KubeletVersion          string          `json:"kubeletVersion" protobuf:"bytes,7,opt,name=kubeletVersion"`
	KubeProxyVersion        string          `json:"kubeProxyVersion" protobuf:"bytes,8,opt,name=kubeProxyVersion"`
	OperatingSystem         string          `json:"operatingSystem" protobuf:"bytes,9,opt,name=operatingSystem"`
	Architecture            string          `json:"architecture" protobuf:"bytes,10,opt,name=architecture"`
	Swap                    *NodeSwapStatus `json:"swap,omitempty" protobuf:"bytes,11,opt,name=swap"`
}

// NodeSwapStatus is the node's swap memory.
type NodeSwapStatus struct {
	Capacity *int64 `json:"capacity,omitempty" protobuf:"varint,1,opt,name=capacity"`
}

// ContainerImage is an image present on the node.
type ContainerImage struct {
	Names     []string `json:"names" protobuf:"bytes,1,rep,name=names"`
	SizeBytes int64    `json:"sizeBytes,omitempty" protobuf:"varint,2,opt,name=sizeBytes"`
}

// UniqueVolumeName names a volume attached to a node.
type UniqueVolumeName string

// AttachedVolume is a volume attached to the node.
type AttachedVolume struct {
	Name       UniqueVolumeName `json:"name" protobuf:"bytes,1,rep,name=name"`
	DevicePath string           `json:"devicePath" protobuf:"bytes,2,rep,name=devicePath"`
}

// NodeRuntimeHandler is a container runtime handler the node offers.
type NodeRuntimeHandler struct {
	Name     string                      `json:"name" protobuf:"bytes,1,opt,name=name"`
	Features *NodeRuntimeHandlerFeatures `json:"features,omitempty" protobuf:"bytes,2,opt,name=features"`
}

// NodeRuntimeHandlerFeatures are the features of a runtime handler.
type NodeRuntimeHandlerFeatures struct {
	RecursiveReadOnlyMounts *bool `json:"recursiveReadOnlyMounts,omitempty" protobuf:"varint,1,opt,name=recursiveReadOnlyMounts"`
	UserNamespaces          *bool `json:"userNamespaces,omitempty" protobuf:"varint,2,opt,name=userNamespaces"`
}

// NodeFeatures are the features of the node's container runtime.
type NodeFeatures struct {
	SupplementalGroupsPolicy *bool `json:"supplementalGroupsPolicy,omitempty" protobuf:"varint,1,opt,name=supplementalGroupsPolicy"`
}

// The well-known node labels the kubelet sets.
const (
	LabelHostname       = "kubernetes.io/hostname"
	LabelOSStable       = "kubernetes.io/os"
	LabelArchStable     = "kubernetes.io/arch"
	LabelTopologyZone   = "topology.kubernetes.io/zone"
	LabelTopologyRegion = "topology.kubernetes.io/region"
)
