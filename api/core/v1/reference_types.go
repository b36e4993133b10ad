package v1

// ObjectReference points at another object, possibly a field within it:
// an Event's involved object, a Binding's target node.
type ObjectReference struct {
	Kind            string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	Namespace       string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
	Name            string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	UID             string `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`
	APIVersion      string `json:"apiVersion,omitempty" protobuf:"bytes,5,opt,name=apiVersion"`
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
	// FieldPath names a part of the object, such as
	// "spec.containers{web}" for one container of a pod.
	FieldPath string `json:"fieldPath,omitempty" protobuf:"bytes,7,opt,name=fieldPath"`
}

// LocalObjectReference names an object in the same namespace.
type LocalObjectReference struct {
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
}

// TypedLocalObjectReference names an object of a given kind in the same
// namespace.
type TypedLocalObjectReference struct {
	APIGroup *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	Kind     string  `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	Name     string  `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// ConditionStatus is the status of a condition: True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Protocol is a network protocol of a port.
type Protocol string

// The port protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)
