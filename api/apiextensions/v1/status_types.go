package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// CustomResourceDefinitionStatus is what the API server made of a CRD.
type CustomResourceDefinitionStatus struct {
	// Conditions are the CRD's conditions, one per type.
	Conditions []CustomResourceDefinitionCondition `json:"conditions" protobuf:"bytes,1,opt,name=conditions"`
	// AcceptedNames are the names discovery serves, which may lag behind
	// spec.names while a name is in conflict.
	AcceptedNames CustomResourceDefinitionNames `json:"acceptedNames" protobuf:"bytes,2,opt,name=acceptedNames"`
	// StoredVersions are every version objects were ever persisted in, so
	// that a migration knows what is left in etcd. A version in it may not
	// be removed from spec.versions.
	StoredVersions []string `json:"storedVersions" protobuf:"bytes,3,rep,name=storedVersions"`
	// ObservedGeneration is the generation the CRD controllers last acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,4,opt,name=observedGeneration"`
}

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// CustomResourceDefinitionConditionType is the type of a CRD condition.
type CustomResourceDefinitionConditionType string

// The CRD condition types.
const (
	// Established: the resource is served. A CRD is established once its
	// names are first accepted, and stays so until it is deleted.
	Established CustomResourceDefinitionConditionType = "Established"
	// NamesAccepted: the names do not conflict with another CRD's in the
	// group.
	NamesAccepted CustomResourceDefinitionConditionType = "NamesAccepted"
	// NonStructuralSchema: a schema is not structural (see
	// api/apiextensions/schema). v1 rejects such CRDs, so the condition is
	// only seen on CRDs stored before that rule.
	NonStructuralSchema CustomResourceDefinitionConditionType = "NonStructuralSchema"
	// Terminating: the CRD is deleted and its custom resources are being
	// removed.
	Terminating CustomResourceDefinitionConditionType = "Terminating"
	// KubernetesAPIApprovalPolicyConformant: for CRDs in *.k8s.io and
	// *.kubernetes.io, whether KubeAPIApprovedAnnotation is set to a URL.
	KubernetesAPIApprovalPolicyConformant CustomResourceDefinitionConditionType = "KubernetesAPIApprovalPolicyConformant"
	// StorageMigrating: the storage version is being migrated.
	StorageMigrating CustomResourceDefinitionConditionType = "StorageMigrating"
)

// CustomResourceDefinitionCondition is one condition of a CRD.
type CustomResourceDefinitionCondition struct {
	Type   CustomResourceDefinitionConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=CustomResourceDefinitionConditionType"`
	Status ConditionStatus                       `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	// LastTransitionTime is when Status last changed. Written as null
	// when zero, as upstream does (omitempty has no effect on a struct).
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a one-word CamelCase reason for the last transition.
	Reason  string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
	// ObservedGeneration is the metadata.generation the condition was set for.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,6,opt,name=observedGeneration"`
}
