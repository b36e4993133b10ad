package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Scale is the desired and observed replica count of a scalable object,
// and the label selector of its pods. Its metadata is the object's own
// name, namespace, uid, resourceVersion and creationTimestamp: a write
// with a resourceVersion is conditional on the object's.
type Scale struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              ScaleSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            ScaleStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ScaleSpec is what a client may change: the desired replicas.
type ScaleSpec struct {
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
}

// ScaleStatus is what the object's controller observed.
type ScaleStatus struct {
	// Replicas is the number of replicas the controller last counted.
	Replicas int32 `json:"replicas" protobuf:"varint,1,opt,name=replicas"`
	// Selector is the label selector of the pods, in its string form
	// ("app=web"), as `kubectl get pods -l` takes it.
	Selector string `json:"selector,omitempty" protobuf:"bytes,2,opt,name=selector"`
}
