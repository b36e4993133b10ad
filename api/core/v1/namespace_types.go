package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Namespace is a scope for names: most objects live in one. Deleting a
// namespace deletes everything in it; the "kubernetes" finalizer in
// spec.finalizers holds the namespace until the namespace controller has
// done so.
type Namespace struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              NamespaceSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            NamespaceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NamespaceSpec is the desired state of a Namespace.
type NamespaceSpec struct {
	// Finalizers must be empty before the namespace is removed from
	// storage. They are changed only through the finalize subresource.
	Finalizers []FinalizerName `json:"finalizers,omitempty" protobuf:"bytes,1,rep,name=finalizers,casttype=FinalizerName"`
}

// FinalizerName names a namespace finalizer.
type FinalizerName string

// FinalizerKubernetes is the finalizer the namespace controller removes
// once the namespace is empty.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespaceStatus is the observed state of a Namespace.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase,casttype=NamespacePhase"`
	Conditions []NamespaceCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,2,rep,name=conditions"`
}

// NamespacePhase is the lifecycle phase of a Namespace.
type NamespacePhase string

// The namespace phases.
const (
	// NamespaceActive accepts new objects.
	NamespaceActive NamespacePhase = "Active"
	// NamespaceTerminating is being deleted: new objects are refused and
	// existing ones are being removed.
	NamespaceTerminating NamespacePhase = "Terminating"
)

// NamespaceTerminatingCause is the cause type of the Forbidden error that
// refuses a create in a namespace being deleted, so that controllers can
// tell it from other refusals.
const NamespaceTerminatingCause metav1.CauseType = "NamespaceTerminating"

// NamespaceConditionType names a namespace condition.
type NamespaceConditionType string

// The conditions the namespace controller reports while deleting.
const (
	NamespaceDeletionDiscoveryFailure NamespaceConditionType = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionContentFailure   NamespaceConditionType = "NamespaceDeletionContentFailure"
	NamespaceDeletionGVParsingFailure NamespaceConditionType = "NamespaceDeletionGroupVersionParsingFailure"
	NamespaceContentRemaining         NamespaceConditionType = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      NamespaceConditionType = "NamespaceFinalizersRemaining"
)

// NamespaceCondition is one observation about a Namespace.
type NamespaceCondition struct {
	Type               NamespaceConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=NamespaceConditionType"`
	Status             ConditionStatus        `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string                 `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string                 `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// NamespaceList is a list of Namespaces.
type NamespaceList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Namespace `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// LabelMetadataName is the label the API server sets on every namespace to
// its name, so namespaces can be selected by name.
const LabelMetadataName = "kubernetes.io/metadata.name"
