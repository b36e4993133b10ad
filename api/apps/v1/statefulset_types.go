package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// StatefulSet declares a set of pods with stable identities: pod N of
// set "web" is always web-N, with its own claims from
// spec.volumeClaimTemplates. minicp serves the API only; no controller
// creates the pods.
type StatefulSet struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              StatefulSetSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            StatefulSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// StatefulSetList is a list of StatefulSets.
type StatefulSetList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []StatefulSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PodManagementPolicyType says whether a StatefulSet's pods are created
// and deleted one at a time, in order, or all at once.
type PodManagementPolicyType string

// The pod management policies.
const (
	// OrderedReadyPodManagement creates pods in order, each once the one
	// before is ready, and deletes them in reverse. The default.
	OrderedReadyPodManagement PodManagementPolicyType = "OrderedReady"
	// ParallelPodManagement creates and deletes pods without waiting.
	ParallelPodManagement PodManagementPolicyType = "Parallel"
)

// StatefulSetUpdateStrategy says how a StatefulSet replaces its pods when
// the template changes.
type StatefulSetUpdateStrategy struct {
	// Type defaults to RollingUpdate.
	Type StatefulSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=StatefulSetStrategyType"`
	// RollingUpdate tunes a RollingUpdate; it must be unset otherwise.
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// StatefulSetUpdateStrategyType names a StatefulSet's update strategy.
type StatefulSetUpdateStrategyType string

// The update strategies.
const (
	// RollingUpdateStatefulSetStrategyType replaces pods from the highest
	// ordinal down. The default.
	RollingUpdateStatefulSetStrategyType StatefulSetUpdateStrategyType = "RollingUpdate"
	// OnDeleteStatefulSetStrategyType replaces a pod only once someone
	// deletes it.
	OnDeleteStatefulSetStrategyType StatefulSetUpdateStrategyType = "OnDelete"
	// RecreateStatefulSetStrategyType is reserved by upstream and not
	// accepted by its validation.
	RecreateStatefulSetStrategyType StatefulSetUpdateStrategyType = "Recreate"
)

// RollingUpdateStatefulSetStrategy bounds a rolling update.
type RollingUpdateStatefulSetStrategy struct {
	// Partition keeps pods with a lower ordinal at the old revision.
	// Defaults to 0.
	Partition *int32 `json:"partition,omitempty" protobuf:"varint,1,opt,name=partition"`
	// MaxUnavailable is how many pods may be down during the update, a
	// count or a percentage.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"varint,2,opt,name=maxUnavailable"`
}

// PersistentVolumeClaimRetentionPolicyType says what happens to the claims
// of a StatefulSet's pods.
type PersistentVolumeClaimRetentionPolicyType string

// The claim retention policies.
const (
	// RetainPersistentVolumeClaimRetentionPolicyType keeps the claims. The
	// default.
	RetainPersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Retain"
	// DeletePersistentVolumeClaimRetentionPolicyType deletes them.
	DeletePersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to the
// claims from volumeClaimTemplates when the set is deleted or scaled down.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty" protobuf:"bytes,1,opt,name=whenDeleted,casttype=PersistentVolumeClaimRetentionPolicyType"`
	WhenScaled  PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty" protobuf:"bytes,2,opt,name=whenScaled,casttype=PersistentVolumeClaimRetentionPolicyType"`
}

// StatefulSetOrdinals moves the ordinals of a StatefulSet's pods.
type StatefulSetOrdinals struct {
	// Start is the ordinal of the first pod. Defaults to 0.
	Start int32 `json:"start" protobuf:"varint,1,opt,name=start"`
}

// StatefulSetSpec is the desired state of a StatefulSet.
type StatefulSetSpec struct {
	// Replicas is the number of pods wanted. Defaults to 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector picks the set's pods. It must match Template's labels and
	// may not change.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the pod every replica is created from.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// VolumeClaimTemplates are the claims each pod gets, named
	// <claim>-<pod>. They may not change.
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty" protobuf:"bytes,4,rep,name=volumeClaimTemplates"`
	// ServiceName is the headless Service that gives the pods their DNS
	// names.
	ServiceName string `json:"serviceName" protobuf:"bytes,5,opt,name=serviceName"`
	// PodManagementPolicy defaults to OrderedReady and may not change.
	PodManagementPolicy PodManagementPolicyType `json:"podManagementPolicy,omitempty" protobuf:"bytes,6,opt,name=podManagementPolicy,casttype=PodManagementPolicyType"`
	// UpdateStrategy defaults to a RollingUpdate with partition 0.
	UpdateStrategy StatefulSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,7,opt,name=updateStrategy"`
	// RevisionHistoryLimit is how many ControllerRevisions to keep.
	// Defaults to 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,8,opt,name=revisionHistoryLimit"`
	// MinReadySeconds is how long a new pod must be ready to count as
	// available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,9,opt,name=minReadySeconds"`
	// PersistentVolumeClaimRetentionPolicy defaults to Retain for both
	// deletion and scale down.
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty" protobuf:"bytes,10,opt,name=persistentVolumeClaimRetentionPolicy"`
	// Ordinals moves the pods' ordinals.
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty" protobuf:"bytes,11,opt,name=ordinals"`
}

// StatefulSetStatus is what the statefulset controller observed.
type StatefulSetStatus struct {
	ObservedGeneration int64                  `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	Replicas           int32                  `json:"replicas" protobuf:"varint,2,opt,name=replicas"`
	ReadyReplicas      int32                  `json:"readyReplicas,omitempty" protobuf:"varint,3,opt,name=readyReplicas"`
	CurrentReplicas    int32                  `json:"currentReplicas,omitempty" protobuf:"varint,4,opt,name=currentReplicas"`
	UpdatedReplicas    int32                  `json:"updatedReplicas,omitempty" protobuf:"varint,5,opt,name=updatedReplicas"`
	CurrentRevision    string                 `json:"currentRevision,omitempty" protobuf:"bytes,6,opt,name=currentRevision"`
	UpdateRevision     string                 `json:"updateRevision,omitempty" protobuf:"bytes,7,opt,name=updateRevision"`
	CollisionCount     *int32                 `json:"collisionCount,omitempty" protobuf:"varint,9,opt,name=collisionCount"`
	Conditions         []StatefulSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,10,rep,name=conditions"`
	AvailableReplicas  int32                  `json:"availableReplicas" protobuf:"varint,11,opt,name=availableReplicas"`
}

// StatefulSetConditionType names a condition of a StatefulSet.
type StatefulSetConditionType string

// StatefulSetCondition is one condition of a StatefulSet.
type StatefulSetCondition struct {
	Type               StatefulSetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=StatefulSetConditionType"`
	Status             corev1.ConditionStatus   `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	LastTransitionTime metav1.Time              `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	Reason             string                   `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string                   `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *StatefulSet) DeepCopy() *StatefulSet {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *StatefulSet) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *StatefulSetList) DeepCopy() *StatefulSetList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *StatefulSetList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}
