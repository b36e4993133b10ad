package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// LimitRange sets, for the pods and containers of its namespace, the
// least and most they may request or be limited to, and the requests and
// limits a container gets when it names none. The LimitRanger admission
// plugin applies it to every pod created.
type LimitRange struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is the limits.
	Spec LimitRangeSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// LimitRangeList is a list of LimitRanges.
type LimitRangeList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []LimitRange `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// LimitRangeSpec is the limits of a LimitRange.
type LimitRangeSpec struct {
	Limits []LimitRangeItem `json:"limits" protobuf:"bytes,1,rep,name=limits"`
}

// LimitType is what a LimitRangeItem applies to.
type LimitType string

// The limit types.
const (
	// LimitTypePod: the sum over a pod's containers.
	LimitTypePod LimitType = "Pod"
	// LimitTypeContainer: each container.
	LimitTypeContainer LimitType = "Container"
	// LimitTypePersistentVolumeClaim: each claim's storage.
	LimitTypePersistentVolumeClaim LimitType = "PersistentVolumeClaim"
)

// LimitRangeItem is the limits of one type of object.
type LimitRangeItem struct {
	Type LimitType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=LimitType"`
	// Max is the most a request or limit may be.
	Max ResourceList `json:"max,omitempty" protobuf:"bytes,2,rep,name=max,casttype=ResourceList,castkey=ResourceName"`
	// Min is the least a request or limit may be.
	Min ResourceList `json:"min,omitempty" protobuf:"bytes,3,rep,name=min,casttype=ResourceList,castkey=ResourceName"`
	// Default is the limit of a container that sets none.
	Default ResourceList `json:"default,omitempty" protobuf:"bytes,4,rep,name=default,casttype=ResourceList,castkey=ResourceName"`
	// DefaultRequest is the request of a container that sets none.
	DefaultRequest ResourceList `json:"defaultRequest,omitempty" protobuf:"bytes,5,rep,name=defaultRequest,casttype=ResourceList,castkey=ResourceName"`
	// MaxLimitRequestRatio is the most a limit may be as a multiple of
	// the request.
	MaxLimitRequestRatio ResourceList `json:"maxLimitRequestRatio,omitempty" protobuf:"bytes,6,rep,name=maxLimitRequestRatio,casttype=ResourceList,castkey=ResourceName"`
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *LimitRange) DeepCopy() *LimitRange {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *LimitRange) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *LimitRangeList) DeepCopyObject() runtime.Object {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}
