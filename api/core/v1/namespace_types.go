package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Namespace is a scope for names: most objects live in one. Deleting a
// namespace deletes everything in it; the "kubernetes" finalizer in
// spec.finalizers holds the namespace until the namespace controller has
// done so.
type Namespace struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              NamespaceSpec   `json:"spec,omitzero"`
	Status            NamespaceStatus `json:"status,omitzero"`
}

// NamespaceSpec is the desired state of a Namespace.
type NamespaceSpec struct {
	// Finalizers must be empty before the namespace is removed from
	// storage. They are changed only through the finalize subresource.
	Finalizers []FinalizerName `json:"finalizers,omitempty"`
}

// FinalizerName names a namespace finalizer.
type FinalizerName string

// FinalizerKubernetes is the finalizer the namespace controller removes
// once the namespace is empty.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespaceStatus is the observed state of a Namespace.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty"`
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
	Type               NamespaceConditionType `json:"type"`
	Status             ConditionStatus        `json:"status"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitzero"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// NamespaceList is a list of Namespaces.
type NamespaceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Namespace `json:"items"`
}

// LabelMetadataName is the label the API server sets on every namespace to
// its name, so namespaces can be selected by name.
const LabelMetadataName = "kubernetes.io/metadata.name"
