package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// PodStatus is the observed state of a Pod, written by the scheduler
// (PodScheduled) and the kubelet (everything else).
type PodStatus struct {
	Phase                 PodPhase          `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase,casttype=PodPhase"`
	Conditions            []PodCondition    `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,2,rep,name=conditions"`
	Message               string            `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	Reason                string            `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	NominatedNodeName     string            `json:"nominatedNodeName,omitempty" protobuf:"bytes,11,opt,name=nominatedNodeName"`
	HostIP                string            `json:"hostIP,omitempty" protobuf:"bytes,5,opt,name=hostIP"`
	HostIPs               []HostIP          `json:"hostIPs,omitempty" protobuf:"bytes,16,rep,name=hostIPs" patchStrategy:"merge" patchMergeKey:"ip"`
	PodIP                 string            `json:"podIP,omitempty" protobuf:"bytes,6,opt,name=podIP"`
	PodIPs                []PodIP           `json:"podIPs,omitempty" protobuf:"bytes,12,rep,name=podIPs" patchStrategy:"merge" patchMergeKey:"ip"`
	StartTime             *metav1.Time      `json:"startTime,omitempty" protobuf:"bytes,7,opt,name=startTime"`
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty" protobuf:"bytes,10,rep,name=initContainerStatuses"`
	ContainerStatuses     []ContainerStatus `json:"containerStatuses,omitempty" protobuf:"bytes,8,rep,name=containerStatuses"`
	QOSClass              PodQOSClass       `json:"qosClass,omitempty" protobuf:"bytes,9,rep,name=qosClass"`
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
	Type               PodConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=PodConditionType"`
	ObservedGeneration int64            `json:"observedGeneration,omitempty" protobuf:"varint,7,opt,name=observedGeneration"`
	Status             ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	LastProbeTime      metav1.Time      `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	LastTransitionTime metav1.Time      `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string           `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string           `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// HostIP is one IP address of the pod's node.
type HostIP struct {
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
}

// PodIP is one IP address of the pod.
type PodIP struct {
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
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
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// State is the current state; LastTerminationState the previous run's
	// end, after a restart.
	State                ContainerState `json:"state,omitempty" protobuf:"bytes,2,opt,name=state"`
	LastTerminationState ContainerState `json:"lastState,omitempty" protobuf:"bytes,3,opt,name=lastState"`
	Ready                bool           `json:"ready" protobuf:"varint,4,opt,name=ready"`
	RestartCount         int32          `json:"restartCount" protobuf:"varint,5,opt,name=restartCount"`
	Image                string         `json:"image" protobuf:"bytes,6,opt,name=image"`
	ImageID              string         `json:"imageID" protobuf:"bytes,7,opt,name=imageID"`
	// ContainerID is "<runtime>://<id>".
	ContainerID        string                `json:"containerID,omitempty" protobuf:"bytes,8,opt,name=containerID"`
	Started            *bool                 `json:"started,omitempty" protobuf:"varint,9,opt,name=started"`
	AllocatedResources ResourceList          `json:"allocatedResources,omitempty" protobuf:"bytes,10,rep,name=allocatedResources,casttype=ResourceList,castkey=ResourceName"`
	Resources          *ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,11,opt,name=resources"`
	VolumeMounts       []VolumeMountStatus   `json:"volumeMounts,omitempty" patchStrategy:"merge" patchMergeKey:"mountPath" protobuf:"bytes,12,rep,name=volumeMounts"`
	User               *ContainerUser        `json:"user,omitempty" protobuf:"bytes,13,opt,name=user,casttype=ContainerUser"`
}

// ContainerState is one of waiting, running or terminated; at most one is
// set, none meaning waiting.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty" protobuf:"bytes,1,opt,name=waiting"`
	Running    *ContainerStateRunning    `json:"running,omitempty" protobuf:"bytes,2,opt,name=running"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty" protobuf:"bytes,3,opt,name=terminated"`
}

// ContainerStateWaiting is a container not yet running: "ContainerCreating",
// "ImagePullBackOff", "CrashLoopBackOff".
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty" protobuf:"bytes,1,opt,name=reason"`
	Message string `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt metav1.Time `json:"startedAt,omitempty" protobuf:"bytes,1,opt,name=startedAt"`
}

// ContainerStateTerminated is a container that exited.
type ContainerStateTerminated struct {
	ExitCode    int32       `json:"exitCode" protobuf:"varint,1,opt,name=exitCode"`
	Signal      int32       `json:"signal,omitempty" protobuf:"varint,2,opt,name=signal"`
	Reason      string      `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	Message     string      `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
	StartedAt   metav1.Time `json:"startedAt,omitempty" protobuf:"bytes,5,opt,name=startedAt"`
	FinishedAt  metav1.Time `json:"finishedAt,omitempty" protobuf:"bytes,6,opt,name=finishedAt"`
	ContainerID string      `json:"containerID,omitempty" protobuf:"bytes,7,opt,name=containerID"`
}

// VolumeMountStatus reports how a volume was mounted.
type VolumeMountStatus struct {
	Name              string                 `json:"name" protobuf:"bytes,1,opt,name=name"`
	MountPath         string                 `json:"mountPath" protobuf:"bytes,2,opt,name=mountPath"`
	ReadOnly          bool                   `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty" protobuf:"bytes,4,opt,name=recursiveReadOnly,casttype=RecursiveReadOnlyMode"`
}

// ContainerUser is the identity the container's first process runs as.
type ContainerUser struct {
	Linux *LinuxContainerUser `json:"linux,omitempty" protobuf:"bytes,1,opt,name=linux,casttype=LinuxContainerUser"`
}

// LinuxContainerUser is a Linux uid, gid and groups.
type LinuxContainerUser struct {
	UID                int64   `json:"uid" protobuf:"varint,1,name=uid"`
	GID                int64   `json:"gid" protobuf:"varint,2,name=gid"`
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty" protobuf:"varint,3,rep,name=supplementalGroups"`
}
