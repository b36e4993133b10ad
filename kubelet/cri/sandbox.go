package cri

import "time"

// PodSandboxMetadata identifies the pod a sandbox belongs to. Name,
// Namespace, UID and Attempt together are unique among a runtime's
// sandboxes.
type PodSandboxMetadata struct {
	Name      string
	Namespace string
	UID       string
	// Attempt counts the sandboxes the kubelet created for this pod; it
	// bumps it when it recreates one.
	Attempt uint32
}

// PodSandboxConfig is what RunPodSandbox needs to create a sandbox.
// Upstream: runtime/v1 PodSandboxConfig.
type PodSandboxConfig struct {
	Metadata PodSandboxMetadata
	// Hostname is the pod's hostname: its containers see it in HOSTNAME
	// and from `hostname`. Defaults to Metadata.Name.
	Hostname string
	// Labels and Annotations are copied to the sandbox; ListPodSandbox
	// filters on Labels.
	Labels      map[string]string
	Annotations map[string]string
}

// PodSandboxState is whether a sandbox runs.
type PodSandboxState string

// The sandbox states.
const (
	// SandboxReady: the pause container runs and the network is set up.
	SandboxReady PodSandboxState = "SANDBOX_READY"
	// SandboxNotReady: stopped (or failed); only removal is left.
	SandboxNotReady PodSandboxState = "SANDBOX_NOTREADY"
)

// PodSandboxNetworkStatus is a sandbox's network.
type PodSandboxNetworkStatus struct {
	// IP is the pod IP the CNI plugin gave the sandbox; empty once the
	// sandbox stopped.
	IP string
}

// PodSandboxStatus is the status of one sandbox.
// Upstream: runtime/v1 PodSandboxStatus.
type PodSandboxStatus struct {
	ID          string
	Metadata    PodSandboxMetadata
	State       PodSandboxState
	CreatedAt   time.Time
	Network     PodSandboxNetworkStatus
	Hostname    string
	Labels      map[string]string
	Annotations map[string]string
}

// PodSandbox is one entry of ListPodSandbox.
// Upstream: runtime/v1 PodSandbox.
type PodSandbox struct {
	ID          string
	Metadata    PodSandboxMetadata
	State       PodSandboxState
	CreatedAt   time.Time
	Labels      map[string]string
	Annotations map[string]string
}

// PodSandboxFilter selects sandboxes; zero fields match everything.
type PodSandboxFilter struct {
	ID    string
	State PodSandboxState
	// LabelSelector matches sandboxes that have every one of these labels.
	LabelSelector map[string]string
}
