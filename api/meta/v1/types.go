package v1

import "github.com/minicp/minicp/api/runtime"

// TypeMeta says what an object is on the wire: kind and apiVersion. It is
// runtime.TypeMeta, named here too because every kind embeds it as
// metav1.TypeMeta, as in Kubernetes.
type TypeMeta = runtime.TypeMeta

// ObjectMeta is the metadata every persisted object has. Fields marked
// server-set are owned by the API server: clients may send them but the
// server overwrites or validates them.
type ObjectMeta struct {
	Name         string `json:"name,omitempty"`
	GenerateName string `json:"generateName,omitempty"`
	Namespace    string `json:"namespace,omitempty"`
	SelfLink     string `json:"selfLink,omitempty"`
	// UID is server-set at creation and never changes.
	UID string `json:"uid,omitempty"`
	// ResourceVersion is server-set: the etcd revision that last wrote the
	// object. Clients must treat it as opaque.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Generation is server-set: 1 at creation, bumped on every spec change.
	Generation int64 `json:"generation,omitempty"`
	// CreationTimestamp is server-set at creation.
	CreationTimestamp Time `json:"creationTimestamp,omitzero"`
	// DeletionTimestamp is server-set when a graceful or finalized deletion
	// starts; the object is gone once its finalizers are empty.
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string    `json:"labels,omitempty"`
	Annotations                map[string]string    `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty"`
	Finalizers                 []string             `json:"finalizers,omitempty"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// GetObjectMeta gives access to the embedded ObjectMeta of any object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// OwnerReference points from a dependent to its owner; the garbage collector
// deletes dependents whose owners are gone.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// ManagedFieldsEntry records which manager set which fields. minicp keeps
// what clients send so server-side-apply aware clients round-trip, but does
// not compute field ownership itself.
type ManagedFieldsEntry struct {
	Manager     string         `json:"manager,omitempty"`
	Operation   string         `json:"operation,omitempty"`
	APIVersion  string         `json:"apiVersion,omitempty"`
	Time        *Time          `json:"time,omitempty"`
	FieldsType  string         `json:"fieldsType,omitempty"`
	FieldsV1    map[string]any `json:"fieldsV1,omitempty"`
	Subresource string         `json:"subresource,omitempty"`
}

// ListMeta is the metadata of a list: the resourceVersion the list is
// consistent at and, for a paged list, the token for the next page.
type ListMeta struct {
	SelfLink           string `json:"selfLink,omitempty"`
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// GetListMeta gives access to the embedded ListMeta of any list.
func (m *ListMeta) GetListMeta() *ListMeta { return m }

// LabelSelector selects objects by labels, as Deployments and Jobs do.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one expression of a LabelSelector; Operator is
// one of In, NotIn, Exists, DoesNotExist.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Preconditions must hold for a delete to proceed.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// DeletionPropagation says what happens to an object's dependents.
type DeletionPropagation string

// The propagation policies of DeleteOptions.
const (
	DeletePropagationOrphan     DeletionPropagation = "Orphan"
	DeletePropagationBackground DeletionPropagation = "Background"
	DeletePropagationForeground DeletionPropagation = "Foreground"
)

// DeleteOptions is the optional body of a DELETE request.
type DeleteOptions struct {
	TypeMeta           `json:",inline"`
	GracePeriodSeconds *int64               `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions       `json:"preconditions,omitempty"`
	OrphanDependents   *bool                `json:"orphanDependents,omitempty"`
	PropagationPolicy  *DeletionPropagation `json:"propagationPolicy,omitempty"`
	DryRun             []string             `json:"dryRun,omitempty"`
}

// The namespaces every cluster has.
const (
	NamespaceDefault = "default"
	NamespaceSystem  = "kube-system"
	NamespacePublic  = "kube-public"
	// NamespaceNodeLease holds the nodes' heartbeat Leases.
	NamespaceNodeLease = "kube-node-lease"
	// NamespaceAll is the empty namespace: every namespace, in a list.
	NamespaceAll = ""
)
