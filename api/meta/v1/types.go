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
	Name         string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	GenerateName string `json:"generateName,omitempty" protobuf:"bytes,2,opt,name=generateName"`
	Namespace    string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`
	SelfLink     string `json:"selfLink,omitempty" protobuf:"bytes,4,opt,name=selfLink"`
	// UID is server-set at creation and never changes.
	UID string `json:"uid,omitempty" protobuf:"bytes,5,opt,name=uid,casttype=k8s.io/kubernetes/pkg/types.UID"`
	// ResourceVersion is server-set: the etcd revision that last wrote the
	// object. Clients must treat it as opaque.
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
	// Generation is server-set: 1 at creation, bumped on every spec change.
	Generation int64 `json:"generation,omitempty" protobuf:"varint,7,opt,name=generation"`
	// CreationTimestamp is server-set at creation. Unlike other times, a
	// zero one (a pod template's) is left out rather than written as null,
	// as upstream does (kubernetes/kubernetes#130989).
	CreationTimestamp Time `json:"creationTimestamp,omitempty,omitzero" protobuf:"bytes,8,opt,name=creationTimestamp"`
	// DeletionTimestamp is server-set when a graceful or finalized deletion
	// starts; the object is gone once its finalizers are empty.
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty" protobuf:"bytes,9,opt,name=deletionTimestamp"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty" protobuf:"varint,10,opt,name=deletionGracePeriodSeconds"`
	Labels                     map[string]string    `json:"labels,omitempty" protobuf:"bytes,11,rep,name=labels"`
	Annotations                map[string]string    `json:"annotations,omitempty" protobuf:"bytes,12,rep,name=annotations"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty" patchStrategy:"merge" patchMergeKey:"uid" protobuf:"bytes,13,rep,name=ownerReferences"`
	Finalizers                 []string             `json:"finalizers,omitempty" patchStrategy:"merge" protobuf:"bytes,14,rep,name=finalizers"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty" protobuf:"bytes,17,rep,name=managedFields"`
}

// GetObjectMeta gives access to the embedded ObjectMeta of any object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// OwnerReference points from a dependent to its owner; the garbage collector
// deletes dependents whose owners are gone.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion" protobuf:"bytes,5,opt,name=apiVersion"`
	Kind               string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	Name               string `json:"name" protobuf:"bytes,3,opt,name=name"`
	UID                string `json:"uid" protobuf:"bytes,4,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`
	Controller         *bool  `json:"controller,omitempty" protobuf:"varint,6,opt,name=controller"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty" protobuf:"varint,7,opt,name=blockOwnerDeletion"`
}

// ManagedFieldsEntry records which fields one manager owns: the API
// server's field manager (server-side apply) keeps one entry per manager,
// operation and subresource, and uses them to detect conflicts and to
// remove the fields an applier stops applying.
type ManagedFieldsEntry struct {
	Manager     string    `json:"manager,omitempty" protobuf:"bytes,1,opt,name=manager"`
	Operation   string    `json:"operation,omitempty" protobuf:"bytes,2,opt,name=operation,casttype=ManagedFieldsOperationType"`
	APIVersion  string    `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
	Time        *Time     `json:"time,omitempty" protobuf:"bytes,4,opt,name=time"`
	FieldsType  string    `json:"fieldsType,omitempty" protobuf:"bytes,6,opt,name=fieldsType"`
	FieldsV1    *FieldsV1 `json:"fieldsV1,omitempty" protobuf:"bytes,7,opt,name=fieldsV1"`
	Subresource string    `json:"subresource,omitempty" protobuf:"bytes,8,opt,name=subresource"`
}

// ListMeta is the metadata of a list: the resourceVersion the list is
// consistent at and, for a paged list, the token for the next page.
type ListMeta struct {
	SelfLink           string `json:"selfLink,omitempty" protobuf:"bytes,1,opt,name=selfLink"`
	ResourceVersion    string `json:"resourceVersion,omitempty" protobuf:"bytes,2,opt,name=resourceVersion"`
	Continue           string `json:"continue,omitempty" protobuf:"bytes,3,opt,name=continue"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty" protobuf:"bytes,4,opt,name=remainingItemCount"`
}

// GetListMeta gives access to the embedded ListMeta of any list.
func (m *ListMeta) GetListMeta() *ListMeta { return m }

// LabelSelector selects objects by labels, as Deployments and Jobs do.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty" protobuf:"bytes,1,rep,name=matchLabels"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,2,rep,name=matchExpressions"`
}

// LabelSelectorRequirement is one expression of a LabelSelector; Operator is
// one of In, NotIn, Exists, DoesNotExist.
type LabelSelectorRequirement struct {
	Key      string   `json:"key" protobuf:"bytes,1,opt,name=key"`
	Operator string   `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=LabelSelectorOperator"`
	Values   []string `json:"values,omitempty" protobuf:"bytes,3,rep,name=values"`
}

// Preconditions must hold for a delete to proceed.
type Preconditions struct {
	UID             *string `json:"uid,omitempty" protobuf:"bytes,1,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`
	ResourceVersion *string `json:"resourceVersion,omitempty" protobuf:"bytes,2,opt,name=resourceVersion"`
}

// The finalizers of the garbage collector: an object carrying one is not
// removed until the collector has orphaned (FinalizerOrphanDependents) or
// deleted (FinalizerDeleteDependents) its dependents and removed the
// finalizer. The API server adds them for the Orphan and Foreground
// propagation policies.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

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
	TypeMeta           `json:""`
	GracePeriodSeconds *int64               `json:"gracePeriodSeconds,omitempty" protobuf:"varint,1,opt,name=gracePeriodSeconds"`
	Preconditions      *Preconditions       `json:"preconditions,omitempty" protobuf:"bytes,2,opt,name=preconditions"`
	OrphanDependents   *bool                `json:"orphanDependents,omitempty" protobuf:"varint,3,opt,name=orphanDependents"`
	PropagationPolicy  *DeletionPropagation `json:"propagationPolicy,omitempty" protobuf:"varint,4,opt,name=propagationPolicy"`
	DryRun             []string             `json:"dryRun,omitempty" protobuf:"bytes,5,rep,name=dryRun"`
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
