package v1

import "github.com/minicp/minicp/api/resource"

// Container is one container of a Pod.
type Container struct {
	// Name is a DNS label, unique among the pod's containers and init
	// containers.
	Name       string          `json:"name"`
	Image      string          `json:"image,omitempty"`
	Command    []string        `json:"command,omitempty"`
	Args       []string        `json:"args,omitempty"`
	WorkingDir string          `json:"workingDir,omitempty"`
	Ports      []ContainerPort `json:"ports,omitempty"`
	EnvFrom    []EnvFromSource `json:"envFrom,omitempty"`
	Env        []EnvVar        `json:"env,omitempty"`
	// Resources are tagged omitzero, unlike upstream which always writes
	// "resources": {}.
	Resources ResourceRequirements `json:"resources,omitzero"`
	// RestartPolicy, set to Always on an init container, makes it a
	// sidecar that keeps running alongside the main containers.
	RestartPolicy  *ContainerRestartPolicy `json:"restartPolicy,omitempty"`
	VolumeMounts   []VolumeMount           `json:"volumeMounts,omitempty"`
	LivenessProbe  *Probe                  `json:"livenessProbe,omitempty"`
	ReadinessProbe *Probe                  `json:"readinessProbe,omitempty"`
	StartupProbe   *Probe                  `json:"startupProbe,omitempty"`
	Lifecycle      *Lifecycle              `json:"lifecycle,omitempty"`
	// TerminationMessagePath defaults to /dev/termination-log.
	TerminationMessagePath string `json:"terminationMessagePath,omitempty"`
	// TerminationMessagePolicy defaults to File.
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty"`
	// ImagePullPolicy defaults to Always for a :latest or untagged image and
	// IfNotPresent otherwise.
	ImagePullPolicy PullPolicy       `json:"imagePullPolicy,omitempty"`
	SecurityContext *SecurityContext `json:"securityContext,omitempty"`
	Stdin           bool             `json:"stdin,omitempty"`
	StdinOnce       bool             `json:"stdinOnce,omitempty"`
	TTY             bool             `json:"tty,omitempty"`
}

// ContainerRestartPolicy is the restart policy of one init container.
type ContainerRestartPolicy string

// ContainerRestartPolicyAlways makes an init container a sidecar.
const ContainerRestartPolicyAlways ContainerRestartPolicy = "Always"

// PullPolicy says when the kubelet pulls an image.
type PullPolicy string

// The pull policies.
const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// TerminationMessagePolicy says where a container's termination message
// comes from.
type TerminationMessagePolicy string

// The termination message policies.
const (
	TerminationMessageReadFile              TerminationMessagePolicy = "File"
	TerminationMessageFallbackToLogsOnError TerminationMessagePolicy = "FallbackToLogsOnError"
)

// TerminationMessagePathDefault is where a container writes its
// termination message unless it says otherwise.
const TerminationMessagePathDefault = "/dev/termination-log"

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	// Name is an IANA_SVC_NAME, unique within the pod, that Services and
	// probes can refer to.
	Name     string `json:"name,omitempty"`
	HostPort int32  `json:"hostPort,omitempty"`
	// ContainerPort is 1-65535.
	ContainerPort int32 `json:"containerPort"`
	// Protocol defaults to TCP.
	Protocol Protocol `json:"protocol,omitempty"`
	HostIP   string   `json:"hostIP,omitempty"`
}

// EnvFromSource imports every key of a ConfigMap or Secret as environment
// variables.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty"`
}

// ConfigMapEnvSource names the ConfigMap of an EnvFromSource.
type ConfigMapEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// SecretEnvSource names the Secret of an EnvFromSource.
type SecretEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// EnvVar is one environment variable, with a literal value or one taken
// from elsewhere.
type EnvVar struct {
	Name      string        `json:"name"`
	Value     string        `json:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty"`
}

// EnvVarSource is where an environment variable's value comes from;
// exactly one field is set.
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty"`
}

// ObjectFieldSelector picks a field of the pod ("metadata.name",
// "status.podIP").
type ObjectFieldSelector struct {
	// APIVersion defaults to "v1".
	APIVersion string `json:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath"`
}

// ResourceFieldSelector picks a container's request or limit
// ("limits.cpu").
type ResourceFieldSelector struct {
	ContainerName string `json:"containerName,omitempty"`
	Resource      string `json:"resource"`
	// Divisor is written even when zero, as upstream writes it.
	Divisor resource.Quantity `json:"divisor,omitempty"`
}

// ConfigMapKeySelector picks one key of a ConfigMap.
type ConfigMapKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// SecretKeySelector picks one key of a Secret.
type SecretKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// VolumeMount mounts one of the pod's volumes into a container.
type VolumeMount struct {
	Name              string                 `json:"name"`
	ReadOnly          bool                   `json:"readOnly,omitempty"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty"`
	MountPath         string                 `json:"mountPath"`
	SubPath           string                 `json:"subPath,omitempty"`
	MountPropagation  *MountPropagationMode  `json:"mountPropagation,omitempty"`
	SubPathExpr       string                 `json:"subPathExpr,omitempty"`
}

// RecursiveReadOnlyMode says whether a read-only mount is read-only all
// the way down: Disabled, IfPossible or Enabled.
type RecursiveReadOnlyMode string

// MountPropagationMode is None, HostToContainer or Bidirectional.
type MountPropagationMode string

// Lifecycle holds the hooks run after a container starts and before it
// stops.
type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty"`
}

// LifecycleHandler is one lifecycle hook; exactly one field is set.
type LifecycleHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
	Sleep     *SleepAction     `json:"sleep,omitempty"`
}

// SleepAction sleeps.
type SleepAction struct {
	Seconds int64 `json:"seconds"`
}

// SecurityContext holds a container's security settings; they override
// the pod's.
type SecurityContext struct {
	Capabilities             *Capabilities    `json:"capabilities,omitempty"`
	Privileged               *bool            `json:"privileged,omitempty"`
	SELinuxOptions           *SELinuxOptions  `json:"seLinuxOptions,omitempty"`
	RunAsUser                *int64           `json:"runAsUser,omitempty"`
	RunAsGroup               *int64           `json:"runAsGroup,omitempty"`
	RunAsNonRoot             *bool            `json:"runAsNonRoot,omitempty"`
	ReadOnlyRootFilesystem   *bool            `json:"readOnlyRootFilesystem,omitempty"`
	AllowPrivilegeEscalation *bool            `json:"allowPrivilegeEscalation,omitempty"`
	ProcMount                *string          `json:"procMount,omitempty"`
	SeccompProfile           *SeccompProfile  `json:"seccompProfile,omitempty"`
	AppArmorProfile          *AppArmorProfile `json:"appArmorProfile,omitempty"`
}

// Capabilities are Linux capabilities added to or dropped from the
// runtime's default set.
type Capabilities struct {
	Add  []Capability `json:"add,omitempty"`
	Drop []Capability `json:"drop,omitempty"`
}

// Capability is a Linux capability name ("NET_ADMIN", "ALL").
type Capability string
