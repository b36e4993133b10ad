package v1alpha1

import (
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Summary is the resource usage of a node and of the pods on it.
type Summary struct {
	Node NodeStats  `json:"node"`
	Pods []PodStats `json:"pods"`
}

// NodeStats is the usage of a whole node: its pods and its own daemons.
type NodeStats struct {
	NodeName  string       `json:"nodeName"`
	StartTime metav1.Time  `json:"startTime"`
	CPU       *CPUStats    `json:"cpu,omitempty"`
	Memory    *MemoryStats `json:"memory,omitempty"`
}

// PodStats is the usage of one pod's running containers.
type PodStats struct {
	PodRef     PodReference     `json:"podRef"`
	StartTime  metav1.Time      `json:"startTime"`
	Containers []ContainerStats `json:"containers"`
	CPU        *CPUStats        `json:"cpu,omitempty"`
	Memory     *MemoryStats     `json:"memory,omitempty"`
}

// PodReference names a pod.
type PodReference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	UID       string `json:"uid"`
}

// ContainerStats is the usage of one running container.
type ContainerStats struct {
	Name      string       `json:"name"`
	StartTime metav1.Time  `json:"startTime"`
	CPU       *CPUStats    `json:"cpu,omitempty"`
	Memory    *MemoryStats `json:"memory,omitempty"`
}

// CPUStats is CPU usage measured at Time.
type CPUStats struct {
	Time metav1.Time `json:"time"`
	// UsageNanoCores is the CPU in use, averaged over the sample window,
	// in billionths of a core.
	UsageNanoCores *uint64 `json:"usageNanoCores,omitempty"`
	// UsageCoreNanoSeconds is the CPU time used since the start.
	UsageCoreNanoSeconds *uint64 `json:"usageCoreNanoSeconds,omitempty"`
}

// MemoryStats is memory usage measured at Time.
type MemoryStats struct {
	Time metav1.Time `json:"time"`
	// WorkingSetBytes is the memory in use that cannot be reclaimed
	// without paging out: what the kubelet evicts on, and what `kubectl
	// top` shows.
	WorkingSetBytes *uint64 `json:"workingSetBytes,omitempty"`
}

// Window is the span minicp's kubelets average CPU usage over: each
// Summary's CPU figures are for [Time-Window, Time]. Upstream's Summary
// does not say; metrics-server takes it from the time between two
// scrapes, and minicp's API server reports this one.
const Window = 10 * time.Second
