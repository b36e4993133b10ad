package v1

import "github.com/minicp/minicp/api/resource"

// Container is one container of a Pod.
type Container struct {
	// Name is a DNS label, unique among the pod's containers and init
	// containers.
	Name       string          `json:"name" protobuf:"bytes,1,opt,name=name"`
	Image      string          `json:"image,omitempty" protobuf:"bytes,2,opt,name=image"`
	Command    []string        `json:"command,omitempty" protobuf:"bytes,3,rep,name=command"`
	Args       []string        `json:"args,omitempty" protobuf:"bytes,4,rep,name=args"`
	WorkingDir string          `json:"workingDir,omitempty" protobuf:"bytes,5,opt,name=workingDir"`
	Ports      []ContainerPort `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"containerPort" protobuf:"bytes,6,rep,name=ports"`
	EnvFrom    []EnvFromSource `json:"envFrom,omitempty" protobuf:"bytes,19,rep,name=envFrom"`
	Env        []EnvVar        `json:"env,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,7,rep,name=env"`
	// Resources are the compute resources the container requests and is
	// limited to.
	Resources ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,8,opt,name=resources"`
	// RestartPolicy, set to Always on an init container, makes it a
	// sidecar that keeps running alongside the main containers.
	RestartPolicy  *ContainerRestartPolicy `json:"restartPolicy,omitempty" protobuf:"bytes,24,opt,name=restartPolicy,casttype=ContainerRestartPolicy"`
	VolumeMounts   []VolumeMount           `json:"volumeMounts,omitempty" patchStrategy:"merge" patchMergeKey:"mountPath" protobuf:"bytes,9,rep,name=volumeMounts"`
	LivenessProbe  *Probe                  `json:"livenessProbe,omitempty" protobuf:"bytes,10,opt,name=livenessProbe"`
	ReadinessProbe *Probe                  `json:"readinessProbe,omitempty" protobuf:"bytes,11,opt,name=readinessProbe"`
	StartupProbe   *Probe                  `json:"startupProbe,omitempty" protobuf:"bytes,22,opt,name=startupProbe"`
	Lifecycle      *Lifecycle              `json:"lifecycle,omitempty" protobuf:"bytes,12,opt,name=lifecycle"`
	// TerminationMessagePath defaults to /dev/termination-log.
	TerminationMessagePath string `json:"terminationMessagePath,omitempty" protobuf:"bytes,13,opt,name=terminationMessagePath"`
	// TerminationMessagePolicy defaults to File.
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty" protobuf:"bytes,20,opt,name=terminationMessagePolicy,casttype=TerminationMessagePolicy"`
	// ImagePullPolicy defaults to Always for a :latest or untagged image and
	// IfNotPresent otherwise.
	ImagePullPolicy PullPolicy       `json:"imagePullPolicy,omitempty" protobuf:"bytes,14,opt,name=imagePullPolicy,casttype=PullPolicy"`
	SecurityContext *SecurityContext `json:"securityContext,omitempty" protobuf:"bytes,15,opt,name=securityContext"`
	Stdin           bool             `json:"stdin,omitempty" protobuf:"varint,16,opt,name=stdin"`
	StdinOnce       bool             `json:"stdinOnce,omitempty" protobuf:"varint,17,opt,name=stdinOnce"`
	TTY             bool             `json:"tty,omitempty" protobuf:"varint,18,opt,name=tty"`
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
	Name     string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	HostPort int32  `json:"hostPort,omitempty" protobuf:"varint,2,opt,name=hostPort"`
	// ContainerPort is 1-65535.
	ContainerPort int32 `json:"containerPort" protobuf:"varint,3,opt,name=containerPort"`
	// Protocol defaults to TCP.
	Protocol Protocol `json:"protocol,omitempty" protobuf:"bytes,4,opt,name=protocol,casttype=Protocol"`
	HostIP   string   `json:"hostIP,omitempty" protobuf:"bytes,5,opt,name=hostIP"`
}

// EnvFromSource imports every key of a ConfigMap or Secret as environment
// variables.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty" protobuf:"bytes,1,opt,name=prefix"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty" protobuf:"bytes,2,opt,name=configMapRef"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty" protobuf:"bytes,3,opt,name=secretRef"`
}

// ConfigMapEnvSource names the ConfigMap of an EnvFromSource.
type ConfigMapEnvSource struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Optional             *bool `json:"optional,omitempty" protobuf:"varint,2,opt,name=optional"`
}

// SecretEnvSource names the Secret of an EnvFromSource.
type SecretEnvSource struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Optional             *bool `json:"optional,omitempty" protobuf:"varint,2,opt,name=optional"`
}

// EnvVar is one environment variable, with a literal value or one taken
// from elsewhere.
type EnvVar struct {
	Name      string        `json:"name" protobuf:"bytes,1,opt,name=name"`
	Value     string        `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty" protobuf:"bytes,3,opt,name=valueFrom"`
}

// EnvVarSource is where an environment variable's value comes from;
// exactly one field is set.
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty" protobuf:"bytes,1,opt,name=fieldRef"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" protobuf:"bytes,2,opt,name=resourceFieldRef"`
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty" protobuf:"bytes,3,opt,name=configMapKeyRef"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty" protobuf:"bytes,4,opt,name=secretKeyRef"`
}

// ObjectFieldSelector picks a field of the pod ("metadata.name",
// "status.podIP").
type ObjectFieldSelector struct {
	// APIVersion defaults to "v1".
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,1,opt,name=apiVersion"`
	FieldPath  string `json:"fieldPath" protobuf:"bytes,2,opt,name=fieldPath"`
}

// ResourceFieldSelector picks a container's request or limit
// ("limits.cpu").
type ResourceFieldSelector struct {
	ContainerName string `json:"containerName,omitempty" protobuf:"bytes,1,opt,name=containerName"`
	Resource      string `json:"resource" protobuf:"bytes,2,opt,name=resource"`
	// Divisor is written even when zero, as upstream writes it.
	Divisor resource.Quantity `json:"divisor,omitempty" protobuf:"bytes,3,opt,name=divisor"`
}

// ConfigMapKeySelector picks one key of a ConfigMap.
type ConfigMapKeySelector struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Key                  string `json:"key" protobuf:"bytes,2,opt,name=key"`
	Optional             *bool  `json:"optional,omitempty" protobuf:"varint,3,opt,name=optional"`
}

// SecretKeySelector picks one key of a Secret.
type SecretKeySelector struct {
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	Key                  string `json:"key" protobuf:"bytes,2,opt,name=key"`
	Optional             *bool  `json:"optional,omitempty" protobuf:"varint,3,opt,name=optional"`
}

// VolumeMount mounts one of the pod's volumes into a container.
type VolumeMount struct {
	Name              string                 `json:"name" protobuf:"bytes,1,opt,name=name"`
	ReadOnly          bool                   `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty" protobuf:"bytes,7,opt,name=recursiveReadOnly,casttype=RecursiveReadOnlyMode"`
	MountPath         string                 `json:"mountPath" protobuf:"bytes,3,opt,name=mountPath"`
	SubPath           string                 `json:"subPath,omitempty" protobuf:"bytes,4,opt,name=subPath"`
	MountPropagation  *MountPropagationMode  `json:"mountPropagation,omitempty" protobuf:"bytes,5,opt,name=mountPropagation,casttype=MountPropagationMode"`
	SubPathExpr       string                 `json:"subPathExpr,omitempty" protobuf:"bytes,6,opt,name=subPathExpr"`
}

// RecursiveReadOnlyMode says whether a read-only mount is read-only all
// the way down: Disabled, IfPossible or Enabled.
type RecursiveReadOnlyMode string

// MountPropagationMode is None, HostToContainer or Bidirectional.
type MountPropagationMode string

// Lifecycle holds the hooks run after a container starts and before it
// stops.
type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty" protobuf:"bytes,1,opt,name=postStart"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty" protobuf:"bytes,2,opt,name=preStop"`
}

// LifecycleHandler is one lifecycle hook; exactly one field is set.
type LifecycleHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty" protobuf:"bytes,1,opt,name=exec"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty" protobuf:"bytes,2,opt,name=httpGet"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty" protobuf:"bytes,3,opt,name=tcpSocket"`
	Sleep     *SleepAction     `json:"sleep,omitempty" protobuf:"bytes,4,opt,name=sleep"`
}

// SleepAction sleeps.
type SleepAction struct {
	Seconds int64 `json:"seconds" protobuf:"bytes,1,opt,name=seconds"`
}

// SecurityContext holds a container's security settings; they override
// the pod's.
type SecurityContext struct {
	Capabilities             *Capabilities    `json:"capabilities,omitempty" protobuf:"bytes,1,opt,name=capabilities"`
	Privileged               *bool            `json:"privileged,omitempty" protobuf:"varint,2,opt,name=privileged"`
	SELinuxOptions           *SELinuxOptions  `json:"seLinuxOptions,omitempty" protobuf:"bytes,3,opt,name=seLinuxOptions"`
	RunAsUser                *int64           `json:"runAsUser,omitempty" protobuf:"varint,4,opt,name=runAsUser"`
	RunAsGroup               *int64           `json:"runAsGroup,omitempty" protobuf:"varint,8,opt,name=runAsGroup"`
	RunAsNonRoot             *bool            `json:"runAsNonRoot,omitempty" protobuf:"varint,5,opt,name=runAsNonRoot"`
	ReadOnlyRootFilesystem   *bool            `json:"readOnlyRootFilesystem,omitempty" protobuf:"varint,6,opt,name=readOnlyRootFilesystem"`
	AllowPrivilegeEscalation *bool            `json:"allowPrivilegeEscalation,omitempty" protobuf:"varint,7,opt,name=allowPrivilegeEscalation"`
	ProcMount                *string          `json:"procMount,omitempty" protobuf:"bytes,9,opt,name=procMount"`
	SeccompProfile           *SeccompProfile  `json:"seccompProfile,omitempty" protobuf:"bytes,11,opt,name=seccompProfile"`
	AppArmorProfile          *AppArmorProfile `json:"appArmorProfile,omitempty" protobuf:"bytes,12,opt,name=appArmorProfile"`
}

// Capabilities are Linux capabilities added to or dropped from the
// runtime's default set.
type Capabilities struct {
	Add  []Capability `json:"add,omitempty" protobuf:"bytes,1,rep,name=add,casttype=Capability"`
	Drop []Capability `json:"drop,omitempty" protobuf:"bytes,2,rep,name=drop,casttype=Capability"`
}

// Capability is a Linux capability name ("NET_ADMIN", "ALL").
type Capability string
