package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// The JSON tags in this file are upstream's, unchanged. encoding/json
// ignores omitempty on struct fields, so metadata, spec.names and status
// are always written, as a real API server writes them.

// CustomResourceDefinition asks the API server to serve a new resource,
// /apis/<group>/<version>/<plural>, whose objects are checked against the
// schema of each version. Its name must be <spec.names.plural>.<spec.group>.
type CustomResourceDefinition struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is how the user wants the resource to appear.
	Spec CustomResourceDefinitionSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// Status is what the API server made of the spec: the conditions, the
	// names it accepted and the versions it ever stored.
	Status CustomResourceDefinitionStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// CustomResourceDefinitionList is a list of CustomResourceDefinitions.
type CustomResourceDefinitionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []CustomResourceDefinition `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// CustomResourceDefinitionSpec is how a user wants the resource to appear.
type CustomResourceDefinitionSpec struct {
	// Group is the API group of the custom resource, served under
	// /apis/<group>/...; it must be the CRD name's suffix.
	Group string                        `json:"group" protobuf:"bytes,1,opt,name=group"`
	Names CustomResourceDefinitionNames `json:"names" protobuf:"bytes,3,opt,name=names"`
	// Scope is Cluster or Namespaced.
	Scope ResourceScope `json:"scope" protobuf:"bytes,4,opt,name=scope,casttype=ResourceScope"`
	// Versions lists every version of the resource; exactly one is the
	// storage version.
	Versions []CustomResourceDefinitionVersion `json:"versions" protobuf:"bytes,7,rep,name=versions"`
	// Conversion says how objects move between versions. Defaults to the
	// None strategy.
	Conversion *CustomResourceConversion `json:"conversion,omitempty" protobuf:"bytes,9,opt,name=conversion"`
	// PreserveUnknownFields turns pruning off for the whole resource. It is
	// deprecated, and v1 only accepts false; schemas say
	// x-kubernetes-preserve-unknown-fields where they need it.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty" protobuf:"varint,10,opt,name=preserveUnknownFields"`
}

// CustomResourceDefinitionNames are the names a custom resource is served
// and discovered under.
type CustomResourceDefinitionNames struct {
	// Plural is the resource in URLs, lower case.
	Plural string `json:"plural" protobuf:"bytes,1,opt,name=plural"`
	// Singular is the lower-case singular. Defaults to the kind in lower case.
	Singular string `json:"singular,omitempty" protobuf:"bytes,2,opt,name=singular"`
	// ShortNames are what `kubectl get <shortname>` accepts.
	ShortNames []string `json:"shortNames,omitempty" protobuf:"bytes,3,opt,name=shortNames"`
	// Kind is the kind of the objects, in CamelCase.
	Kind string `json:"kind" protobuf:"bytes,4,opt,name=kind"`
	// ListKind is the kind of lists. Defaults to Kind + "List".
	ListKind string `json:"listKind,omitempty" protobuf:"bytes,5,opt,name=listKind"`
	// Categories group resources for `kubectl get <category>`, such as "all".
	Categories []string `json:"categories,omitempty" protobuf:"bytes,6,rep,name=categories"`
}

// ResourceScope says whether a custom resource lives in namespaces.
type ResourceScope string

// The scopes a CRD may declare.
const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// KubeAPIApprovedAnnotation must be set on a CRD in a *.k8s.io or
// *.kubernetes.io group, to the URL where the API was approved (or to a
// value starting with "unapproved").
const KubeAPIApprovedAnnotation = "api-approved.kubernetes.io"

// CustomResourceCleanupFinalizer is the finalizer the API server puts on
// every CRD, so that deleting a CRD first deletes all its custom resources.
const CustomResourceCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"
