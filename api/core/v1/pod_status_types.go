package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// PodStatus is the observed state of a Pod, written by the scheduler
// (PodScheduled) and the kubelet (everything else).
type PodStatus struct {
	Phase                 PodPhase          `json:"phase,omitempty"`
	Conditions            []PodCondition    `json:"conditions,omitempty"`
	Message               string            `json:"message,omitempty"`
	Reason                string            `json:"reason,omitempty"`
	NominatedNodeName     string            `json:"nominatedNodeName,omitempty"`
	HostIP                string            `json:"hostIP,omitempty"`
	HostIPs               []HostIP          `json:"hostIPs,omitempty"`
	PodIP                 string            `json:"podIP,omitempty"`
	PodIPs                []PodIP           `json:"podIPs,omitempty"`
	StartTime             *metav1.Time      `json:"startTime,omitempty"`
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
	ContainerStatuses     []ContainerStatus `json:"containerStatuses,omitempty"`
	QOSClass              PodQOSClass       `json:"qosClass,omitempty"`
}

// PodPhase is the coarse lifecycle state of a Pod.
type PodPhase string

// The pod phases.
const (
	// PodPending is accepted but not yet running all containers: waiting
	// for scheduling or for images.
	PodPending PodPhase = "Pending"
	// PodRunning is bound to a node with at least one container running.
	PodRunning PodPhase = "Running"
	// PodSucceeded ended with every container exiting 0; terminal.
	PodSucceeded PodPhase = "Succeeded"
	// PodFailed ended with a container failing; terminal.
	PodFailed PodPhase = "Failed"
	// PodUnknown could not be observed, typically because the node is
	// unreachable.
	PodUnknown PodPhase = "Unknown"
)

// PodConditionType names a pod condition.
type PodConditionType string

// The pod conditions, in the order a pod reaches them.
const (
	PodScheduled              PodConditionType = "PodScheduled"
	PodReadyToStartContainers PodConditionType = "PodReadyToStartContainers"
	PodInitialized            PodConditionType = "Initialized"
	ContainersReady           PodConditionType = "ContainersReady"
	PodReady                  PodConditionType = "Ready"
	// DisruptionTarget marks a pod about to be deleted by a disruption.
	DisruptionTarget PodConditionType = "DisruptionTarget"
)

// PodReasonUnschedulable is the PodScheduled=False reason when no node fits.
const PodReasonUnschedulable = "Unschedulable"

// PodCondition is one observation about a Pod.
type PodCondition struct {
	Type               PodConditionType `json:"type"`
	ObservedGeneration int64            `json:"observedGeneration,omitempty"`
	Status             ConditionStatus  `json:"status"`
	LastProbeTime      metav1.Time      `json:"lastProbeTime,omitzero"`
	LastTransitionTime metav1.Time      `json:"lastTransitionTime,omitzero"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// HostIP is one IP address of the pod's node.
type HostIP struct {
	IP string `json:"ip"`
}

// PodIP is one IP address of the pod.
type PodIP struct {
	IP string `json:"ip"`
}

// PodQOSClass is the quality-of-service class the pod's resources put it in.
type PodQOSClass string

// The QoS classes.
const (
	PodQOSGuaranteed PodQOSClass = "Guaranteed"
	PodQOSBurstable  PodQOSClass = "Burstable"
	PodQOSBestEffort PodQOSClass = "BestEffort"
)

// ContainerStatus is the observed state of one container.
type ContainerStatus struct {
	Name string `json:"name"`
	// State is the current state; LastTerminationState the previous run's
	// end, after a restart.
	State                ContainerState `json:"state,omitzero"`
	LastTerminationState ContainerState `json:"lastState,omitzero"`
	Ready                bool           `json:"ready"`
	RestartCount         int32          `json:"restartCount"`
	Image                string         `json:"image"`
	ImageID              string         `json:"imageID"`
	// ContainerID is "<runtime>://<id>".
	ContainerID        string                `json:"containerID,omitempty"`
	Started            *bool                 `json:"started,omitempty"`
	AllocatedResources ResourceList          `json:"allocatedResources,omitempty"`
	Resources          *ResourceRequirements `json:"resources,omitempty"`
	VolumeMounts       []VolumeMountStatus   `json:"volumeMounts,omitempty"`
	User               *ContainerUser        `json:"user,omitempty"`
}

// ContainerState is one of waiting, running or terminated; at most one is
// set, none meaning waiting.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting is a container not yet running: "ContainerCreating",
// "ImagePullBackOff", "CrashLoopBackOff".
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt metav1.Time `json:"startedAt,omitzero"`
}

// ContainerStateTerminated is a container that exited.
type ContainerStateTerminated struct {
	ExitCode    int32       `json:"exitCode"`
	Signal      int32       `json:"signal,omitempty"`
	Reason      string      `json:"reason,omitempty"`
	Message     string      `json:"message,omitempty"`
	StartedAt   metav1.Time `json:"startedAt,omitzero"`
	FinishedAt  metav1.Time `json:"finishedAt,omitzero"`
	ContainerID string      `json:"containerID,omitempty"`
}

// VolumeMountStatus reports how a volume was mounted.
type VolumeMountStatus struct {
	Name              string                 `json:"name"`
	MountPath         string                 `json:"mountPath"`
	ReadOnly          bool                   `json:"readOnly,omitempty"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty"`
}

// ContainerUser is the identity the container's first process runs as.
type ContainerUser struct {
	Linux *LinuxContainerUser `json:"linux,omitempty"`
}

// LinuxContainerUser is a Linux uid, gid and groups.
type LinuxContainerUser struct {
	UID                int64   `json:"uid"`
	GID                int64   `json:"gid"`
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty"`
}
