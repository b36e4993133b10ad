package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Node is a machine that runs pods. The kubelet registers it and reports
// its status; the scheduler places pods on it.
type Node struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              NodeSpec   `json:"spec,omitzero"`
	Status            NodeStatus `json:"status,omitzero"`
}

// NodeList is a list of Nodes.
type NodeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Node `json:"items"`
}

// NodeSpec is the desired state of a Node.
type NodeSpec struct {
	PodCIDR  string   `json:"podCIDR,omitempty"`
	PodCIDRs []string `json:"podCIDRs,omitempty"`
	// ProviderID is "<provider>://<id>"; once set it cannot change.
	ProviderID string `json:"providerID,omitempty"`
	// Unschedulable cordons the node: no new pods are scheduled onto it.
	Unschedulable bool    `json:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty"`
	// DoNotUseExternalID is deprecated and ignored; it is kept so old
	// manifests decode.
	DoNotUseExternalID string `json:"externalID,omitempty"`
}

// NodeStatus is the observed state of a Node, reported by its kubelet.
type NodeStatus struct {
	// Capacity is what the node has; Allocatable what pods may use
	// (defaults to Capacity).
	Capacity        ResourceList         `json:"capacity,omitempty"`
	Allocatable     ResourceList         `json:"allocatable,omitempty"`
	Phase           NodePhase            `json:"phase,omitempty"`
	Conditions      []NodeCondition      `json:"conditions,omitempty"`
	Addresses       []NodeAddress        `json:"addresses,omitempty"`
	DaemonEndpoints NodeDaemonEndpoints  `json:"daemonEndpoints,omitzero"`
	NodeInfo        NodeSystemInfo       `json:"nodeInfo,omitzero"`
	Images          []ContainerImage     `json:"images,omitempty"`
	VolumesInUse    []UniqueVolumeName   `json:"volumesInUse,omitempty"`
	VolumesAttached []AttachedVolume     `json:"volumesAttached,omitempty"`
	RuntimeHandlers []NodeRuntimeHandler `json:"runtimeHandlers,omitempty"`
	Features        *NodeFeatures        `json:"features,omitempty"`
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
	Type   NodeConditionType `json:"type"`
	Status ConditionStatus   `json:"status"`
	// LastHeartbeatTime is the last time the kubelet confirmed the
	// condition.
	LastHeartbeatTime  metav1.Time `json:"lastHeartbeatTime,omitzero"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitzero"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
}

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type"`
	Address string          `json:"address"`
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
	KubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitzero"`
}

// DaemonEndpoint is a daemon's port. The capital "Port" is upstream's
// spelling on the wire.
type DaemonEndpoint struct {
	Port int32 `json:"Port"`
}

// NodeSystemInfo describes the node's machine and software. Every field is
// always written, as upstream writes it.
type NodeSystemInfo struct {
	MachineID               string          `json:"machineID"`
	SystemUUID              string          `json:"systemUUID"`
	BootID                  string          `json:"bootID"`
	KernelVersion           string          `json:"kernelVersion"`
	OSImage                 string          `json:"osImage"`
	ContainerRuntimeVersion string          `json:"containerRuntimeVersion"`
	KubeletVersion          string          `json:"kubeletVersion"`
	KubeProxyVersion        string          `json:"kubeProxyVersion"`
	OperatingSystem         string          `json:"operatingSystem"`
	Architecture            string          `json:"architecture"`
	Swap                    *NodeSwapStatus `json:"swap,omitempty"`
}

// NodeSwapStatus is the node's swap memory.
type NodeSwapStatus struct {
	Capacity *int64 `json:"capacity,omitempty"`
}

// ContainerImage is an image present on the node.
type ContainerImage struct {
	Names     []string `json:"names"`
	SizeBytes int64    `json:"sizeBytes,omitempty"`
}

// UniqueVolumeName names a volume attached to a node.
type UniqueVolumeName string

// AttachedVolume is a volume attached to the node.
type AttachedVolume struct {
	Name       UniqueVolumeName `json:"name"`
	DevicePath string           `json:"devicePath"`
}

// NodeRuntimeHandler is a container runtime handler the node offers.
type NodeRuntimeHandler struct {
	Name     string                      `json:"name"`
	Features *NodeRuntimeHandlerFeatures `json:"features,omitempty"`
}

// NodeRuntimeHandlerFeatures are the features of a runtime handler.
type NodeRuntimeHandlerFeatures struct {
	RecursiveReadOnlyMounts *bool `json:"recursiveReadOnlyMounts,omitempty"`
	UserNamespaces          *bool `json:"userNamespaces,omitempty"`
}

// NodeFeatures are the features of the node's container runtime.
type NodeFeatures struct {
	SupplementalGroupsPolicy *bool `json:"supplementalGroupsPolicy,omitempty"`
}

// The well-known node labels the kubelet sets.
const (
	LabelHostname       = "kubernetes.io/hostname"
	LabelOSStable       = "kubernetes.io/os"
	LabelArchStable     = "kubernetes.io/arch"
	LabelTopologyZone   = "topology.kubernetes.io/zone"
	LabelTopologyRegion = "topology.kubernetes.io/region"
)
