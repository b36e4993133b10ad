package v1

import "github.com/minicp/minicp/api/resource"

// ResourceName names a resource a container requests or a node offers.
type ResourceName string

// The standard resource names.
const (
	// ResourceCPU is in cores; "100m" is a tenth of one.
	ResourceCPU ResourceName = "cpu"
	// ResourceMemory is in bytes.
	ResourceMemory ResourceName = "memory"
	// ResourcePods is the number of pods a node can run.
	ResourcePods ResourceName = "pods"
	// ResourceEphemeralStorage is local scratch space, in bytes.
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
)

// ResourceList maps resource names to amounts.
type ResourceList map[ResourceName]resource.Quantity

// Name returns the amount of name, or a zero Quantity in defaultFormat.
func (rl ResourceList) Name(name ResourceName, defaultFormat resource.Format) *resource.Quantity {
	if q, ok := rl[name]; ok {
		return &q
	}
	return &resource.Quantity{Format: defaultFormat}
}

// Cpu returns the CPU amount, or zero. The spelling is upstream's.
func (rl ResourceList) Cpu() *resource.Quantity { return rl.Name(ResourceCPU, resource.DecimalSI) }

// Memory returns the memory amount, or zero.
func (rl ResourceList) Memory() *resource.Quantity {
	return rl.Name(ResourceMemory, resource.BinarySI)
}

// Pods returns the pod count, or zero.
func (rl ResourceList) Pods() *resource.Quantity { return rl.Name(ResourcePods, resource.DecimalSI) }

// StorageEphemeral returns the ephemeral storage amount, or zero.
func (rl ResourceList) StorageEphemeral() *resource.Quantity {
	return rl.Name(ResourceEphemeralStorage, resource.BinarySI)
}

// ResourceRequirements are the resources a container asks for (Requests,
// what the scheduler reserves) and may not exceed (Limits).
type ResourceRequirements struct {
	Limits   ResourceList    `json:"limits,omitempty" protobuf:"bytes,1,rep,name=limits,casttype=ResourceList,castkey=ResourceName"`
	Requests ResourceList    `json:"requests,omitempty" protobuf:"bytes,2,rep,name=requests,casttype=ResourceList,castkey=ResourceName"`
	Claims   []ResourceClaim `json:"claims,omitempty" protobuf:"bytes,3,opt,name=claims"`
}

// ResourceClaim names one of the pod's resource claims.
type ResourceClaim struct {
	Name    string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Request string `json:"request,omitempty" protobuf:"bytes,2,opt,name=request"`
}
