package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Pod is a group of containers scheduled together onto one node.
type Pod struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              PodSpec   `json:"spec,omitzero"`
	Status            PodStatus `json:"status,omitzero"`
}

// PodList is a list of Pods.
type PodList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Pod `json:"items"`
}

// PodTemplateSpec is the pod a workload controller stamps out.
type PodTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              PodSpec `json:"spec,omitzero"`
}

// PodSpec is the desired state of a Pod.
type PodSpec struct {
	Volumes        []Volume    `json:"volumes,omitempty"`
	InitContainers []Container `json:"initContainers,omitempty"`
	Containers     []Container `json:"containers"`
	// RestartPolicy is Always, OnFailure or Never. Defaults to Always.
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty"`
	// TerminationGracePeriodSeconds is how long the kubelet waits after
	// SIGTERM before killing. Defaults to 30.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// ActiveDeadlineSeconds bounds the pod's run time; the kubelet fails it
	// afterwards.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// DNSPolicy defaults to ClusterFirst.
	DNSPolicy    DNSPolicy         `json:"dnsPolicy,omitempty"`
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// ServiceAccountName is the service account the pod runs as.
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// DeprecatedServiceAccount is the old name of ServiceAccountName; the
	// server keeps the two equal.
	DeprecatedServiceAccount     string `json:"serviceAccount,omitempty"`
	AutomountServiceAccountToken *bool  `json:"automountServiceAccountToken,omitempty"`
	// NodeName is the node the pod is bound to. The scheduler sets it
	// through the binding subresource; a pod created with it set skips the
	// scheduler.
	NodeName              string                 `json:"nodeName,omitempty"`
	HostNetwork           bool                   `json:"hostNetwork,omitempty"`
	HostPID               bool                   `json:"hostPID,omitempty"`
	HostIPC               bool                   `json:"hostIPC,omitempty"`
	ShareProcessNamespace *bool                  `json:"shareProcessNamespace,omitempty"`
	SecurityContext       *PodSecurityContext    `json:"securityContext,omitempty"`
	ImagePullSecrets      []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	Hostname              string                 `json:"hostname,omitempty"`
	Subdomain             string                 `json:"subdomain,omitempty"`
	Affinity              *Affinity              `json:"affinity,omitempty"`
	// SchedulerName picks the scheduler. Defaults to "default-scheduler".
	SchedulerName     string             `json:"schedulerName,omitempty"`
	Tolerations       []Toleration       `json:"tolerations,omitempty"`
	HostAliases       []HostAlias        `json:"hostAliases,omitempty"`
	PriorityClassName string             `json:"priorityClassName,omitempty"`
	Priority          *int32             `json:"priority,omitempty"`
	DNSConfig         *PodDNSConfig      `json:"dnsConfig,omitempty"`
	ReadinessGates    []PodReadinessGate `json:"readinessGates,omitempty"`
	RuntimeClassName  *string            `json:"runtimeClassName,omitempty"`
	// EnableServiceLinks injects Service environment variables. Defaults
	// to true.
	EnableServiceLinks        *bool                      `json:"enableServiceLinks,omitempty"`
	PreemptionPolicy          *PreemptionPolicy          `json:"preemptionPolicy,omitempty"`
	Overhead                  ResourceList               `json:"overhead,omitempty"`
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	SetHostnameAsFQDN         *bool                      `json:"setHostnameAsFQDN,omitempty"`
	OS                        *PodOS                     `json:"os,omitempty"`
	HostUsers                 *bool                      `json:"hostUsers,omitempty"`
}

// RestartPolicy says when the kubelet restarts a pod's containers.
type RestartPolicy string

// The restart policies.
const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// DNSPolicy says how a pod's DNS is configured.
type DNSPolicy string

// The DNS policies.
const (
	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	DNSClusterFirst            DNSPolicy = "ClusterFirst"
	DNSDefault                 DNSPolicy = "Default"
	DNSNone                    DNSPolicy = "None"
)

// PreemptionPolicy says whether a pod may preempt lower-priority pods.
type PreemptionPolicy string

// The preemption policies.
const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// DefaultSchedulerName is the scheduler of pods that name none.
const DefaultSchedulerName = "default-scheduler"

// DefaultTerminationGracePeriodSeconds is the grace period of pods that
// give none.
const DefaultTerminationGracePeriodSeconds int64 = 30

// PodSecurityContext holds pod-wide security settings.
type PodSecurityContext struct {
	SELinuxOptions      *SELinuxOptions         `json:"seLinuxOptions,omitempty"`
	RunAsUser           *int64                  `json:"runAsUser,omitempty"`
	RunAsGroup          *int64                  `json:"runAsGroup,omitempty"`
	RunAsNonRoot        *bool                   `json:"runAsNonRoot,omitempty"`
	SupplementalGroups  []int64                 `json:"supplementalGroups,omitempty"`
	FSGroup             *int64                  `json:"fsGroup,omitempty"`
	Sysctls             []Sysctl                `json:"sysctls,omitempty"`
	FSGroupChangePolicy *PodFSGroupChangePolicy `json:"fsGroupChangePolicy,omitempty"`
	SeccompProfile      *SeccompProfile         `json:"seccompProfile,omitempty"`
	AppArmorProfile     *AppArmorProfile        `json:"appArmorProfile,omitempty"`
}

// PodFSGroupChangePolicy says when volume ownership is changed to fsGroup.
type PodFSGroupChangePolicy string

// SELinuxOptions are SELinux labels.
type SELinuxOptions struct {
	User  string `json:"user,omitempty"`
	Role  string `json:"role,omitempty"`
	Type  string `json:"type,omitempty"`
	Level string `json:"level,omitempty"`
}

// Sysctl is one kernel parameter.
type Sysctl struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SeccompProfile picks a seccomp profile: RuntimeDefault, Unconfined or
// Localhost (with LocalhostProfile).
type SeccompProfile struct {
	Type             string  `json:"type"`
	LocalhostProfile *string `json:"localhostProfile,omitempty"`
}

// AppArmorProfile picks an AppArmor profile, like SeccompProfile.
type AppArmorProfile struct {
	Type             string  `json:"type"`
	LocalhostProfile *string `json:"localhostProfile,omitempty"`
}

// HostAlias is an /etc/hosts entry.
type HostAlias struct {
	IP        string   `json:"ip"`
	Hostnames []string `json:"hostnames,omitempty"`
}

// PodDNSConfig adds to the DNS configuration DNSPolicy produces.
type PodDNSConfig struct {
	Nameservers []string             `json:"nameservers,omitempty"`
	Searches    []string             `json:"searches,omitempty"`
	Options     []PodDNSConfigOption `json:"options,omitempty"`
}

// PodDNSConfigOption is a resolver option.
type PodDNSConfigOption struct {
	Name  string  `json:"name,omitempty"`
	Value *string `json:"value,omitempty"`
}

// PodReadinessGate is an extra condition the pod needs to be Ready.
type PodReadinessGate struct {
	ConditionType PodConditionType `json:"conditionType"`
}

// PodOS names the operating system the pod needs.
type PodOS struct {
	Name string `json:"name"`
}
