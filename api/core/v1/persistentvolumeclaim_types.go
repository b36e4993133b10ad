package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// PersistentVolumeClaim is a request for storage. minicp serves no
// persistentvolumeclaims resource and binds no volumes: the type exists
// because a StatefulSet carries claims as templates
// (spec.volumeClaimTemplates), and their fields must survive a round trip.
type PersistentVolumeClaim struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              PersistentVolumeClaimSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            PersistentVolumeClaimStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PersistentVolumeAccessMode says how many nodes may mount a volume, and
// how.
type PersistentVolumeAccessMode string

// The access modes.
const (
	ReadWriteOnce    PersistentVolumeAccessMode = "ReadWriteOnce"
	ReadOnlyMany     PersistentVolumeAccessMode = "ReadOnlyMany"
	ReadWriteMany    PersistentVolumeAccessMode = "ReadWriteMany"
	ReadWriteOncePod PersistentVolumeAccessMode = "ReadWriteOncePod"
)

// PersistentVolumeMode says whether a volume is a filesystem or a raw block
// device.
type PersistentVolumeMode string

// PersistentVolumeClaimPhase is where a claim is in its life: Pending,
// Bound or Lost.
type PersistentVolumeClaimPhase string

// PersistentVolumeClaimConditionType names a condition of a claim.
type PersistentVolumeClaimConditionType string

// ClaimResourceStatus is the state of a resize of a claim's resource.
type ClaimResourceStatus string

// PersistentVolumeClaimModifyVolumeStatus is the state of a change of a
// claim's volume attributes class.
type PersistentVolumeClaimModifyVolumeStatus string

// PersistentVolumeClaimSpec is the storage a claim asks for.
type PersistentVolumeClaimSpec struct {
	AccessModes               []PersistentVolumeAccessMode `json:"accessModes,omitempty" protobuf:"bytes,1,rep,name=accessModes,casttype=PersistentVolumeAccessMode"`
	Selector                  *metav1.LabelSelector        `json:"selector,omitempty" protobuf:"bytes,4,opt,name=selector"`
	Resources                 VolumeResourceRequirements   `json:"resources,omitempty" protobuf:"bytes,2,opt,name=resources"`
	VolumeName                string                       `json:"volumeName,omitempty" protobuf:"bytes,3,opt,name=volumeName"`
	StorageClassName          *string                      `json:"storageClassName,omitempty" protobuf:"bytes,5,opt,name=storageClassName"`
	VolumeMode                *PersistentVolumeMode        `json:"volumeMode,omitempty" protobuf:"bytes,6,opt,name=volumeMode,casttype=PersistentVolumeMode"`
	DataSource                *TypedLocalObjectReference   `json:"dataSource,omitempty" protobuf:"bytes,7,opt,name=dataSource"`
	DataSourceRef             *TypedObjectReference        `json:"dataSourceRef,omitempty" protobuf:"bytes,8,opt,name=dataSourceRef"`
	VolumeAttributesClassName *string                      `json:"volumeAttributesClassName,omitempty" protobuf:"bytes,9,opt,name=volumeAttributesClassName"`
}

// VolumeResourceRequirements is the storage size a claim asks for (and
// may grow to).
type VolumeResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty" protobuf:"bytes,1,rep,name=limits,casttype=ResourceList,castkey=ResourceName"`
	Requests ResourceList `json:"requests,omitempty" protobuf:"bytes,2,rep,name=requests,casttype=ResourceList,castkey=ResourceName"`
}

// TypedObjectReference names an object of a given kind, possibly in
// another namespace: the populator of a claim's volume.
type TypedObjectReference struct {
	APIGroup  *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	Kind      string  `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	Name      string  `json:"name" protobuf:"bytes,3,opt,name=name"`
	Namespace *string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// PersistentVolumeClaimStatus is what the volume controllers observed of a
// claim.
type PersistentVolumeClaimStatus struct {
	Phase                            PersistentVolumeClaimPhase           `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase,casttype=PersistentVolumeClaimPhase"`
	AccessModes                      []PersistentVolumeAccessMode         `json:"accessModes,omitempty" protobuf:"bytes,2,rep,name=accessModes,casttype=PersistentVolumeAccessMode"`
	Capacity                         ResourceList                         `json:"capacity,omitempty" protobuf:"bytes,3,rep,name=capacity,casttype=ResourceList,castkey=ResourceName"`
	Conditions                       []PersistentVolumeClaimCondition     `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,4,rep,name=conditions"`
	AllocatedResources               ResourceList                         `json:"allocatedResources,omitempty" protobuf:"bytes,5,rep,name=allocatedResources,casttype=ResourceList,castkey=ResourceName"`
	AllocatedResourceStatuses        map[ResourceName]ClaimResourceStatus `json:"allocatedResourceStatuses,omitempty" protobuf:"bytes,7,rep,name=allocatedResourceStatuses"`
	CurrentVolumeAttributesClassName *string                              `json:"currentVolumeAttributesClassName,omitempty" protobuf:"bytes,8,opt,name=currentVolumeAttributesClassName"`
	ModifyVolumeStatus               *ModifyVolumeStatus                  `json:"modifyVolumeStatus,omitempty" protobuf:"bytes,9,opt,name=modifyVolumeStatus"`
	HealthStatus                     *VolumeHealthStatus                  `json:"healthStatus,omitempty" protobuf:"bytes,10,opt,name=healthStatus"`
}

// PersistentVolumeClaimCondition is one condition of a claim (a resize in
// progress, ...).
type PersistentVolumeClaimCondition struct {
	Type               PersistentVolumeClaimConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=PersistentVolumeClaimConditionType"`
	Status             ConditionStatus                    `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	LastProbeTime      metav1.Time                        `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	LastTransitionTime metav1.Time                        `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string                             `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string                             `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// ModifyVolumeStatus is the state of a change of a claim's volume
// attributes class.
type ModifyVolumeStatus struct {
	TargetVolumeAttributesClassName string                                  `json:"targetVolumeAttributesClassName,omitempty" protobuf:"bytes,1,opt,name=targetVolumeAttributesClassName"`
	Status                          PersistentVolumeClaimModifyVolumeStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=PersistentVolumeClaimModifyVolumeStatus"`
}

// VolumeHealthStatusType names the health of a volume.
type VolumeHealthStatusType string

// VolumeHealthStatus is the health a CSI driver reported for a claim's
// volume.
type VolumeHealthStatus struct {
	HealthConditions   []VolumeHealthCondition `json:"healthConditions,omitempty" patchStrategy:"merge" patchMergeKey:"status" protobuf:"bytes,1,rep,name=healthConditions"`
	LastTransitionTime metav1.Time             `json:"lastTransitionTime,omitempty" protobuf:"bytes,2,opt,name=lastTransitionTime"`
}

// VolumeHealthCondition is one health observation of a volume.
type VolumeHealthCondition struct {
	Status  VolumeHealthStatusType `json:"status" protobuf:"bytes,1,opt,name=status,casttype=VolumeHealthStatusType"`
	Reason  string                 `json:"reason" protobuf:"bytes,2,opt,name=reason"`
	Message string                 `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
}
