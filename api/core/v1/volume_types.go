package v1

import "github.com/minicp/minicp/api/resource"

// Volume is a named volume of a Pod that containers mount by name.
type Volume struct {
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// VolumeSource is where the data comes from; a volume with no source
	// is defaulted to an emptyDir.
	VolumeSource `json:"" protobuf:"bytes,2,opt,name=volumeSource"`
}

// VolumeSource is the source of a volume; exactly one field is set. minicp
// carries the sources pods commonly use; others are unknown fields.
type VolumeSource struct {
	HostPath              *HostPathVolumeSource              `json:"hostPath,omitempty" protobuf:"bytes,1,opt,name=hostPath"`
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty" protobuf:"bytes,2,opt,name=emptyDir"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty" protobuf:"bytes,6,opt,name=secret"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty" protobuf:"bytes,10,opt,name=persistentVolumeClaim"`
	DownwardAPI           *DownwardAPIVolumeSource           `json:"downwardAPI,omitempty" protobuf:"bytes,16,opt,name=downwardAPI"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty" protobuf:"bytes,19,opt,name=configMap"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty" protobuf:"bytes,26,opt,name=projected"`
}

// HostPathVolumeSource mounts a path of the node.
type HostPathVolumeSource struct {
	Path string `json:"path" protobuf:"bytes,1,opt,name=path"`
	// Type defaults to "" (no check).
	Type *HostPathType `json:"type,omitempty" protobuf:"bytes,2,opt,name=type"`
}

// HostPathType says what must be at a host path: "" (anything),
// DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice,
// BlockDevice.
type HostPathType string

// HostPathUnset is the default HostPathType: no check.
const HostPathUnset HostPathType = ""

// EmptyDirVolumeSource is a scratch directory that lives as long as the pod.
type EmptyDirVolumeSource struct {
	// Medium is "" (node disk) or "Memory" (tmpfs).
	Medium    StorageMedium      `json:"medium,omitempty" protobuf:"bytes,1,opt,name=medium,casttype=StorageMedium"`
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty" protobuf:"bytes,2,opt,name=sizeLimit"`
}

// StorageMedium is where an emptyDir is stored.
type StorageMedium string

// SecretVolumeSource mounts a Secret's keys as files.
type SecretVolumeSource struct {
	SecretName string      `json:"secretName,omitempty" protobuf:"bytes,1,opt,name=secretName"`
	Items      []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"bytes,3,opt,name=defaultMode"`
	Optional    *bool  `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// ConfigMapVolumeSource mounts a ConfigMap's keys as files.
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Items                []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,3,opt,name=defaultMode"`
	Optional    *bool  `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// KeyToPath maps one key to a file path.
type KeyToPath struct {
	Key  string `json:"key" protobuf:"bytes,1,opt,name=key"`
	Path string `json:"path" protobuf:"bytes,2,opt,name=path"`
	Mode *int32 `json:"mode,omitempty" protobuf:"varint,3,opt,name=mode"`
}

// PersistentVolumeClaimVolumeSource mounts a PersistentVolumeClaim.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName" protobuf:"bytes,1,opt,name=claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
}

// DownwardAPIVolumeSource writes pod fields to files.
type DownwardAPIVolumeSource struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty" protobuf:"bytes,1,rep,name=items"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,2,opt,name=defaultMode"`
}

// DownwardAPIVolumeFile is one file of a downward API volume.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path" protobuf:"bytes,1,opt,name=path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty" protobuf:"bytes,2,opt,name=fieldRef"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" protobuf:"bytes,3,opt,name=resourceFieldRef"`
	Mode             *int32                 `json:"mode,omitempty" protobuf:"varint,4,opt,name=mode"`
}

// ProjectedVolumeSource merges several sources into one directory; the
// service account token volume every pod gets is one.
type ProjectedVolumeSource struct {
	Sources []VolumeProjection `json:"sources" protobuf:"bytes,1,rep,name=sources"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,2,opt,name=defaultMode"`
}

// VolumeProjection is one source of a projected volume; exactly one field
// is set.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty" protobuf:"bytes,1,opt,name=secret"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty" protobuf:"bytes,2,opt,name=downwardAPI"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty" protobuf:"bytes,3,opt,name=configMap"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty" protobuf:"bytes,4,opt,name=serviceAccountToken"`
}

// SecretProjection projects a Secret's keys.
type SecretProjection struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Items                []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	Optional             *bool       `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// ConfigMapProjection projects a ConfigMap's keys.
type ConfigMapProjection struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Items                []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items"`
	Optional             *bool       `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// DownwardAPIProjection projects pod fields.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty" protobuf:"bytes,1,rep,name=items"`
}

// ServiceAccountTokenProjection projects a service account token.
type ServiceAccountTokenProjection struct {
	Audience string `json:"audience,omitempty" protobuf:"bytes,1,rep,name=audience"`
	// ExpirationSeconds defaults to 3600.
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty" protobuf:"varint,2,opt,name=expirationSeconds"`
	Path              string `json:"path" protobuf:"bytes,3,opt,name=path"`
}

// DefaultVolumeMode is the file mode of secret, configMap, downwardAPI and
// projected volume files unless a mode is given: 0644.
const DefaultVolumeMode int32 = 0o644

// DefaultTokenExpirationSeconds is the lifetime of a projected service
// account token unless one is given.
const DefaultTokenExpirationSeconds int64 = 3600
