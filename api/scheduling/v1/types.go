package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// The priorities and class names the system reserves, as upstream.
const (
	// HighestUserDefinablePriority is the highest value a class a user
	// creates may have; higher ones are the system's.
	HighestUserDefinablePriority = int32(1000000000)
	// SystemCriticalPriority is the lowest of the system's values.
	SystemCriticalPriority = 2 * HighestUserDefinablePriority
	// SystemPriorityClassPrefix starts the names of the system's classes.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical is the class of cluster add-ons that must run
	// (DNS, the metrics server).
	SystemClusterCritical = SystemPriorityClassPrefix + "cluster-critical"
	// SystemNodeCritical is the class of pods a node must run, above the
	// cluster's critical ones.
	SystemNodeCritical = SystemPriorityClassPrefix + "node-critical"
	// DefaultPriorityWhenNoDefaultClassExists is a pod's priority when it
	// names no class and no class is the global default.
	DefaultPriorityWhenNoDefaultClassExists = int32(0)
)

// PriorityClass maps a name to a pod priority: the higher the value, the
// earlier the scheduler considers a pod. At most one class is the
// globalDefault, the priority of pods that name none.
type PriorityClass struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Value is the priority of the pods of the class.
	Value int32 `json:"value" protobuf:"bytes,2,opt,name=value"`
	// GlobalDefault makes the class the one of pods that name none.
	GlobalDefault bool `json:"globalDefault,omitempty" protobuf:"bytes,3,opt,name=globalDefault"`
	// Description says when the class should be used.
	Description string `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	// PreemptionPolicy is the policy of the class's pods:
	// PreemptLowerPriority (the default) or Never.
	PreemptionPolicy *corev1.PreemptionPolicy `json:"preemptionPolicy,omitempty" protobuf:"bytes,5,opt,name=preemptionPolicy"`
}

// PriorityClassList is a list of PriorityClasses.
type PriorityClassList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PriorityClass `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DeepCopyObject implements runtime.Object.
func (p *PriorityClass) DeepCopyObject() runtime.Object { return runtime.DeepCopy(p) }

// DeepCopy returns a deep copy.
func (p *PriorityClass) DeepCopy() *PriorityClass { return runtime.DeepCopy(p) }

// DeepCopyObject implements runtime.Object.
func (l *PriorityClassList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// SystemPriorityClasses are the classes every cluster has, which the API
// server creates at start.
//
// Upstream: k8s.io/kubernetes/pkg/apis/scheduling (SystemPriorityClasses).
func SystemPriorityClasses() []*PriorityClass {
	return []*PriorityClass{
		{
			ObjectMeta:  metav1.ObjectMeta{Name: SystemNodeCritical},
			Value:       SystemCriticalPriority + 1000,
			Description: "Used for system critical pods that must not be moved from their current node.",
		},
		{
			ObjectMeta:  metav1.ObjectMeta{Name: SystemClusterCritical},
			Value:       SystemCriticalPriority,
			Description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
		},
	}
}
