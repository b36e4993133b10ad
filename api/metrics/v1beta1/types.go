package v1beta1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// NodeMetrics is the resource usage of a node: of everything on it, pods
// and the node's own daemons.
type NodeMetrics struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Timestamp and Window give the interval the usage was measured over:
	// [Timestamp-Window, Timestamp].
	Timestamp metav1.Time     `json:"timestamp" protobuf:"bytes,2,opt,name=timestamp"`
	Window    metav1.Duration `json:"window" protobuf:"bytes,3,opt,name=window"`
	// Usage is the CPU in use (cores, averaged over the window) and the
	// memory working set (bytes).
	Usage corev1.ResourceList `json:"usage" protobuf:"bytes,4,rep,name=usage,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName,castvalue=k8s.io/apimachinery/pkg/api/resource.Quantity"`
}

// NodeMetricsList is a list of NodeMetrics.
type NodeMetricsList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []NodeMetrics `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PodMetrics is the resource usage of a pod's running containers, all
// measured over the same window.
type PodMetrics struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Timestamp and Window give the interval the usage was measured over:
	// [Timestamp-Window, Timestamp].
	Timestamp metav1.Time     `json:"timestamp" protobuf:"bytes,2,opt,name=timestamp"`
	Window    metav1.Duration `json:"window" protobuf:"bytes,3,opt,name=window"`
	// Containers are the usage of each running container of the pod.
	Containers []ContainerMetrics `json:"containers" protobuf:"bytes,4,rep,name=containers"`
}

// PodMetricsList is a list of PodMetrics.
type PodMetricsList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PodMetrics `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ContainerMetrics is the resource usage of one container.
type ContainerMetrics struct {
	// Name is the container's name in the pod's spec.containers.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Usage is the CPU in use (cores) and the memory working set (bytes).
	Usage corev1.ResourceList `json:"usage" protobuf:"bytes,2,rep,name=usage,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName,castvalue=k8s.io/apimachinery/pkg/api/resource.Quantity"`
}

// DeepCopyObject implements runtime.Object.
func (m *NodeMetrics) DeepCopyObject() runtime.Object { return runtime.DeepCopy(m) }

// DeepCopyObject implements runtime.Object.
func (l *NodeMetricsList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// DeepCopyObject implements runtime.Object.
func (m *PodMetrics) DeepCopyObject() runtime.Object { return runtime.DeepCopy(m) }

// DeepCopyObject implements runtime.Object.
func (l *PodMetricsList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }
