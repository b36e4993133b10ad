package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Binding binds a pod to a node: the scheduler POSTs one to
// pods/{name}/binding (or to bindings), and the API server sets the pod's
// spec.nodeName to Target.Name. A Binding is never stored.
type Binding struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Target is the node; its Kind is "Node" or empty.
	Target ObjectReference `json:"target" protobuf:"bytes,2,opt,name=target"`
}
