package v1

import "github.com/minicp/minicp/api/resource"

// Volume is a named volume of a Pod that containers mount by name.
type Volume struct {
	Name string `json:"name"`
	// VolumeSource is where the data comes from; a volume with no source
	// is defaulted to an emptyDir.
	VolumeSource `json:",inline"`
}

// VolumeSource is the source of a volume; exactly one field is set. minicp
// carries the sources pods commonly use; others are unknown fields.
type VolumeSource struct {
	HostPath              *HostPathVolumeSource              `json:"hostPath,omitempty"`
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	DownwardAPI           *DownwardAPIVolumeSource           `json:"downwardAPI,omitempty"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty"`
}

// HostPathVolumeSource mounts a path of the node.
type HostPathVolumeSource struct {
	Path string `json:"path"`
	// Type defaults to "" (no check).
	Type *HostPathType `json:"type,omitempty"`
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
	Medium    StorageMedium      `json:"medium,omitempty"`
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty"`
}

// StorageMedium is where an emptyDir is stored.
type StorageMedium string

// SecretVolumeSource mounts a Secret's keys as files.
type SecretVolumeSource struct {
	SecretName string      `json:"secretName,omitempty"`
	Items      []KeyToPath `json:"items,omitempty"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
	Optional    *bool  `json:"optional,omitempty"`
}

// ConfigMapVolumeSource mounts a ConfigMap's keys as files.
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
	Optional    *bool  `json:"optional,omitempty"`
}

// KeyToPath maps one key to a file path.
type KeyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	Mode *int32 `json:"mode,omitempty"`
}

// PersistentVolumeClaimVolumeSource mounts a PersistentVolumeClaim.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// DownwardAPIVolumeSource writes pod fields to files.
type DownwardAPIVolumeSource struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
}

// DownwardAPIVolumeFile is one file of a downward API volume.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	Mode             *int32                 `json:"mode,omitempty"`
}

// ProjectedVolumeSource merges several sources into one directory; the
// service account token volume every pod gets is one.
type ProjectedVolumeSource struct {
	Sources []VolumeProjection `json:"sources"`
	// DefaultMode defaults to 0644.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
}

// VolumeProjection is one source of a projected volume; exactly one field
// is set.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty"`
}

// SecretProjection projects a Secret's keys.
type SecretProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// ConfigMapProjection projects a ConfigMap's keys.
type ConfigMapProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// DownwardAPIProjection projects pod fields.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
}

// ServiceAccountTokenProjection projects a service account token.
type ServiceAccountTokenProjection struct {
	Audience string `json:"audience,omitempty"`
	// ExpirationSeconds defaults to 3600.
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
	Path              string `json:"path"`
}

// DefaultVolumeMode is the file mode of secret, configMap, downwardAPI and
// projected volume files unless a mode is given: 0644.
const DefaultVolumeMode int32 = 0o644

// DefaultTokenExpirationSeconds is the lifetime of a projected service
// account token unless one is given.
const DefaultTokenExpirationSeconds int64 = 3600
