package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Pod is a group of containers scheduled together onto one node.
type Pod struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              PodSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            PodStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodList is a list of Pods.
type PodList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Pod `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PodTemplateSpec is the pod a workload controller stamps out.
type PodTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              PodSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// PodSpec is the desired state of a Pod.
type PodSpec struct {
	Volumes        []Volume    `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name" protobuf:"bytes,1,rep,name=volumes"`
	InitContainers []Container `json:"initContainers,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,20,rep,name=initContainers"`
	Containers     []Container `json:"containers" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=containers"`
	// RestartPolicy is Always, OnFailure or Never. Defaults to Always.
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty" protobuf:"bytes,3,opt,name=restartPolicy,casttype=RestartPolicy"`
	// TerminationGracePeriodSeconds is how long the kubelet waits after
	// SIGTERM before killing. Defaults to 30.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,4,opt,name=terminationGracePeriodSeconds"`
	// ActiveDeadlineSeconds bounds the pod's run time; the kubelet fails it
	// afterwards.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,5,opt,name=activeDeadlineSeconds"`
	// DNSPolicy defaults to ClusterFirst.
	DNSPolicy    DNSPolicy         `json:"dnsPolicy,omitempty" protobuf:"bytes,6,opt,name=dnsPolicy,casttype=DNSPolicy"`
	NodeSelector map[string]string `json:"nodeSelector,omitempty" protobuf:"bytes,7,rep,name=nodeSelector"`
	// ServiceAccountName is the service account the pod runs as.
	ServiceAccountName string `json:"serviceAccountName,omitempty" protobuf:"bytes,8,opt,name=serviceAccountName"`
	// DeprecatedServiceAccount is the old name of ServiceAccountName; the
	// server keeps the two equal.
	DeprecatedServiceAccount     string `json:"serviceAccount,omitempty" protobuf:"bytes,9,opt,name=serviceAccount"`
	AutomountServiceAccountToken *bool  `json:"automountServiceAccountToken,omitempty" protobuf:"varint,21,opt,name=automountServiceAccountToken"`
	// NodeName is the node the pod is bound to. The scheduler sets it
	// through the binding subresource; a pod created with it set skips the
	// scheduler.
	NodeName              string                 `json:"nodeName,omitempty" protobuf:"bytes,10,opt,name=nodeName"`
	HostNetwork           bool                   `json:"hostNetwork,omitempty" protobuf:"varint,11,opt,name=hostNetwork"`
	HostPID               bool                   `json:"hostPID,omitempty" protobuf:"varint,12,opt,name=hostPID"`
	HostIPC               bool                   `json:"hostIPC,omitempty" protobuf:"varint,13,opt,name=hostIPC"`
	ShareProcessNamespace *bool                  `json:"shareProcessNamespace,omitempty" protobuf:"varint,27,opt,name=shareProcessNamespace"`
	SecurityContext       *PodSecurityContext    `json:"securityContext,omitempty" protobuf:"bytes,14,opt,name=securityContext"`
	ImagePullSecrets      []LocalObjectReference `json:"imagePullSecrets,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,15,rep,name=imagePullSecrets"`
	Hostname              string                 `json:"hostname,omitempty" protobuf:"bytes,16,opt,name=hostname"`
	Subdomain             string                 `json:"subdomain,omitempty" protobuf:"bytes,17,opt,name=subdomain"`
	Affinity              *Affinity              `json:"affinity,omitempty" protobuf:"bytes,18,opt,name=affinity"`
	// SchedulerName picks the scheduler. Defaults to "default-scheduler".
	SchedulerName     string             `json:"schedulerName,omitempty" protobuf:"bytes,19,opt,name=schedulerName"`
	Tolerations       []Toleration       `json:"tolerations,omitempty" protobuf:"bytes,22,opt,name=tolerations"`
	HostAliases       []HostAlias        `json:"hostAliases,omitempty" patchStrategy:"merge" patchMergeKey:"ip" protobuf:"bytes,23,rep,name=hostAliases"`
	PriorityClassName string             `json:"priorityClassName,omitempty" protobuf:"bytes,24,opt,name=priorityClassName"`
	Priority          *int32             `json:"priority,omitempty" protobuf:"bytes,25,opt,name=priority"`
	DNSConfig         *PodDNSConfig      `json:"dnsConfig,omitempty" protobuf:"bytes,26,opt,name=dnsConfig"`
	ReadinessGates    []PodReadinessGate `json:"readinessGates,omitempty" protobuf:"bytes,28,opt,name=readinessGates"`
	RuntimeClassName  *string            `json:"runtimeClassName,omitempty" protobuf:"bytes,29,opt,name=runtimeClassName"`
	// EnableServiceLinks injects Service environment variables. Defaults
	// to true.
	EnableServiceLinks        *bool                      `json:"enableServiceLinks,omitempty" protobuf:"varint,30,opt,name=enableServiceLinks"`
	PreemptionPolicy          *PreemptionPolicy          `json:"preemptionPolicy,omitempty" protobuf:"bytes,31,opt,name=preemptionPolicy"`
	Overhead                  ResourceList               `json:"overhead,omitempty" protobuf:"bytes,32,opt,name=overhead"`
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty" patchStrategy:"merge" patchMergeKey:"topologyKey" protobuf:"bytes,33,opt,name=topologySpreadConstraints"`
	SetHostnameAsFQDN         *bool                      `json:"setHostnameAsFQDN,omitempty" protobuf:"varint,35,opt,name=setHostnameAsFQDN"`
	OS                        *PodOS                     `json:"os,omitempty" protobuf:"bytes,36,opt,name=os"`
	HostUsers                 *bool                      `json:"hostUsers,omitempty" protobuf:"bytes,37,opt,name=hostUsers"`
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
	SELinuxOptions      *SELinuxOptions         `json:"seLinuxOptions,omitempty" protobuf:"bytes,1,opt,name=seLinuxOptions"`
	RunAsUser           *int64                  `json:"runAsUser,omitempty" protobuf:"varint,2,opt,name=runAsUser"`
	RunAsGroup          *int64                  `json:"runAsGroup,omitempty" protobuf:"varint,6,opt,name=runAsGroup"`
	RunAsNonRoot        *bool                   `json:"runAsNonRoot,omitempty" protobuf:"varint,3,opt,name=runAsNonRoot"`
	SupplementalGroups  []int64                 `json:"supplementalGroups,omitempty" protobuf:"varint,4,rep,name=supplementalGroups"`
	FSGroup             *int64                  `json:"fsGroup,omitempty" protobuf:"varint,5,opt,name=fsGroup"`
	Sysctls             []Sysctl                `json:"sysctls,omitempty" protobuf:"bytes,7,rep,name=sysctls"`
	FSGroupChangePolicy *PodFSGroupChangePolicy `json:"fsGroupChangePolicy,omitempty" protobuf:"bytes,9,opt,name=fsGroupChangePolicy"`
	SeccompProfile      *SeccompProfile         `json:"seccompProfile,omitempty" protobuf:"bytes,10,opt,name=seccompProfile"`
	AppArmorProfile     *AppArmorProfile        `json:"appArmorProfile,omitempty" protobuf:"bytes,11,opt,name=appArmorProfile"`
}

// PodFSGroupChangePolicy says when volume ownership is changed to fsGroup.
type PodFSGroupChangePolicy string

// SELinuxOptions are SELinux labels.
type SELinuxOptions struct {
	User  string `json:"user,omitempty" protobuf:"bytes,1,opt,name=user"`
	Role  string `json:"role,omitempty" protobuf:"bytes,2,opt,name=role"`
	Type  string `json:"type,omitempty" protobuf:"bytes,3,opt,name=type"`
	Level string `json:"level,omitempty" protobuf:"bytes,4,opt,name=level"`
}

// Sysctl is one kernel parameter.
type Sysctl struct {
	Name  string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Value string `json:"value" protobuf:"bytes,2,opt,name=value"`
}

// SeccompProfile picks a seccomp profile: RuntimeDefault, Unconfined or
// Localhost (with LocalhostProfile).
type SeccompProfile struct {
	Type             string  `json:"type" protobuf:"bytes,1,opt,name=type,casttype=SeccompProfileType"`
	LocalhostProfile *string `json:"localhostProfile,omitempty" protobuf:"bytes,2,opt,name=localhostProfile"`
}

// AppArmorProfile picks an AppArmor profile, like SeccompProfile.
type AppArmorProfile struct {
	Type             string  `json:"type" protobuf:"bytes,1,opt,name=type,casttype=AppArmorProfileType"`
	LocalhostProfile *string `json:"localhostProfile,omitempty" protobuf:"bytes,2,opt,name=localhostProfile"`
}

// HostAlias is an /etc/hosts entry.
type HostAlias struct {
	IP        string   `json:"ip" protobuf:"bytes,1,opt,name=ip"`
	Hostnames []string `json:"hostnames,omitempty" protobuf:"bytes,2,rep,name=hostnames"`
}

// PodDNSConfig adds to the DNS configuration DNSPolicy produces.
type PodDNSConfig struct {
	Nameservers []string             `json:"nameservers,omitempty" protobuf:"bytes,1,rep,name=nameservers"`
	Searches    []string             `json:"searches,omitempty" protobuf:"bytes,2,rep,name=searches"`
	Options     []PodDNSConfigOption `json:"options,omitempty" protobuf:"bytes,3,rep,name=options"`
}

// PodDNSConfigOption is a resolver option.
type PodDNSConfigOption struct {
	Name  string  `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Value *string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
}

// PodReadinessGate is an extra condition the pod needs to be Ready.
type PodReadinessGate struct {
	ConditionType PodConditionType `json:"conditionType" protobuf:"bytes,1,opt,name=conditionType,casttype=PodConditionType"`
}

// PodOS names the operating system the pod needs.
type PodOS struct {
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}
