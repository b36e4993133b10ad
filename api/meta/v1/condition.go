package v1

// Condition is one observation of an object's state, in the shape every
// newer Kubernetes API uses for status.conditions (a Service's, a custom
// resource's): a type, a status, when the status last changed and why.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (Condition).
type Condition struct {
	// Type is a CamelCase name, or a domain-prefixed one for extensions.
	Type   string          `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// ObservedGeneration is the metadata.generation the condition was set
	// from.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,3,opt,name=observedGeneration"`
	// LastTransitionTime is when Status last changed. Upstream requires it
	// and so writes it even when zero (as null).
	LastTransitionTime Time `json:"lastTransitionTime" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word for the cause; Message the human version.
	Reason  string `json:"reason" protobuf:"bytes,5,opt,name=reason"`
	Message string `json:"message" protobuf:"bytes,6,opt,name=message"`
}

// ConditionStatus is the status of a Condition: True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)
