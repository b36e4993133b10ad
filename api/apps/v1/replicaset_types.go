package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// ReplicaSet keeps a number of identical pods running: the replicaset
// controller creates pods from Template until spec.replicas match
// Selector, and deletes the extra ones. Deployments create and scale
// ReplicaSets; they are rarely made by hand.
type ReplicaSet struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              ReplicaSetSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            ReplicaSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ReplicaSetList is a list of ReplicaSets.
type ReplicaSetList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ReplicaSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ReplicaSetSpec is the desired state of a ReplicaSet.
type ReplicaSetSpec struct {
	// Replicas is the number of pods wanted. Defaults to 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// MinReadySeconds is how long a new pod must be ready to count as
	// available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,4,opt,name=minReadySeconds"`
	// Selector picks the pods the ReplicaSet counts and owns; it must
	// match Template's labels.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the pod created for each missing replica.
	Template corev1.PodTemplateSpec `json:"template,omitempty" protobuf:"bytes,3,opt,name=template"`
}

// ReplicaSetStatus is the observed state of a ReplicaSet.
type ReplicaSetStatus struct {
	// Replicas counts the non-terminating pods the ReplicaSet owns.
	Replicas int32 `json:"replicas" protobuf:"varint,1,opt,name=replicas"`
	// FullyLabeledReplicas counts the pods whose labels match the
	// template's, not just the selector.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty" protobuf:"varint,2,opt,name=fullyLabeledReplicas"`
	ReadyReplicas        int32 `json:"readyReplicas,omitempty" protobuf:"varint,4,opt,name=readyReplicas"`
	AvailableReplicas    int32 `json:"availableReplicas,omitempty" protobuf:"varint,5,opt,name=availableReplicas"`
	// TerminatingReplicas counts pods being deleted, when the controller
	// tracks them.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty" protobuf:"varint,7,opt,name=terminatingReplicas"`
	// ObservedGeneration is the metadata.generation the controller last
	// acted on.
	ObservedGeneration int64                 `json:"observedGeneration,omitempty" protobuf:"varint,3,opt,name=observedGeneration"`
	Conditions         []ReplicaSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,6,rep,name=conditions"`
}

// ReplicaSetConditionType names a replica set condition.
type ReplicaSetConditionType string

// ReplicaSetReplicaFailure is True when a pod could not be created or
// deleted (a quota, a failed admission).
const ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"

// ReplicaSetCondition is one observation about a ReplicaSet.
type ReplicaSetCondition struct {
	Type               ReplicaSetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=ReplicaSetConditionType"`
	Status             corev1.ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	LastTransitionTime metav1.Time             `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	Reason             string                  `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string                  `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}
