package cri

import (
	"io"
	"time"
)

// ContainerMetadata identifies a container within its sandbox. Name and
// Attempt together are unique in a sandbox.
type ContainerMetadata struct {
	Name string
	// Attempt counts the container's restarts; the kubelet uses it as the
	// restartCount.
	Attempt uint32
}

// KeyValue is an environment variable.
type KeyValue struct {
	Key   string
	Value string
}

// Protocol is a port's protocol.
type Protocol string

// The protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// PortMapping is a port the container listens on, from the pod spec's
// containerPorts.
type PortMapping struct {
	// Protocol defaults to TCP.
	Protocol      Protocol
	ContainerPort int32
}

// Mount is a volume mounted into a container.
//
// Upstream: runtime/v1 Mount, which names a HostPath: a directory the
// kubelet wrote the volume's files to. minicp's runtimes have no host
// file system, so the kubelet hands them the files.
type Mount struct {
	// ContainerPath is where the volume appears in the container.
	ContainerPath string
	// Files are the volume's files, by path relative to ContainerPath
	// ("key", "dir/key"); the path "" is ContainerPath itself, a mount of
	// one file (a subPath).
	Files map[string]string
	// Readonly mounts refuse writes.
	Readonly bool
}

// ContainerConfig is what CreateContainer needs to create a container.
// Upstream: runtime/v1 ContainerConfig.
type ContainerConfig struct {
	Metadata ContainerMetadata
	// Image is the image reference as the pod spec names it ("nginx",
	// "busybox:1.36", "registry.k8s.io/pause:3.10").
	Image string
	// Command and Args follow the pod spec: Command replaces the image's
	// entrypoint, Args its default arguments.
	Command    []string
	Args       []string
	WorkingDir string
	// Envs is the environment in order; the kubelet has already resolved
	// valueFrom and $(VAR) references.
	Envs []KeyValue
	// Ports are the container's declared ports. Upstream has none (a real
	// process binds what it likes and the ports in the pod spec are
	// informational); minicp's simulated servers listen on them.
	Ports []PortMapping
	// Mounts are the container's volumes, in the order of its
	// volumeMounts: a later mount hides what an earlier one put at its
	// path.
	Mounts []Mount
	// Stdin keeps the process's stdin open for AttachStdin, StdinOnce
	// closes it when the first attached client closes its own, and TTY
	// gives the process a terminal (one output, lines ending in CR LF,
	// what is typed echoed): the container spec's stdin, stdinOnce and
	// tty.
	Stdin, StdinOnce, TTY bool
	Labels                map[string]string
	Annotations           map[string]string
}

// ContainerState is where a container is in its life.
//
//	created --StartContainer--> running --exit/StopContainer--> exited
//	   \________________StartContainer fails______________________/
type ContainerState string

// The container states.
const (
	ContainerCreated ContainerState = "CONTAINER_CREATED"
	ContainerRunning ContainerState = "CONTAINER_RUNNING"
	ContainerExited  ContainerState = "CONTAINER_EXITED"
	ContainerUnknown ContainerState = "CONTAINER_UNKNOWN"
)

// The Reasons of an exited container, as the kubelet shows them in
// ContainerStateTerminated.
const (
	// ReasonCompleted: exit code 0.
	ReasonCompleted = "Completed"
	// ReasonError: a non-zero exit code, including 137 from SIGKILL.
	ReasonError = "Error"
	// ReasonOOMKilled: killed by the kernel's OOM killer (exit code 137).
	ReasonOOMKilled = "OOMKilled"
	// ReasonStartError: the command could not be run (exit code 128).
	ReasonStartError = "StartError"
)

// ContainerStatus is the status of one container.
// Upstream: runtime/v1 ContainerStatus.
type ContainerStatus struct {
	ID           string
	PodSandboxID string
	Metadata     ContainerMetadata
	State        ContainerState
	// CreatedAt is always set; StartedAt once it ran, FinishedAt once it
	// exited.
	CreatedAt  time.Time
	StartedAt  time.Time
	FinishedAt time.Time
	// ExitCode, Reason and Message describe an exited container. Exit
	// codes above 128 are 128 plus the signal that killed it.
	ExitCode int32
	Reason   string
	Message  string
	// Image is the image as configured; ImageRef the ID it resolved to.
	Image       string
	ImageRef    string
	Labels      map[string]string
	Annotations map[string]string
}

// Container is one entry of ListContainers.
// Upstream: runtime/v1 Container.
type Container struct {
	ID           string
	PodSandboxID string
	Metadata     ContainerMetadata
	Image        string
	ImageRef     string
	State        ContainerState
	CreatedAt    time.Time
	Labels       map[string]string
	Annotations  map[string]string
}

// ContainerFilter selects containers; zero fields match everything.
type ContainerFilter struct {
	ID           string
	State        ContainerState
	PodSandboxID string
	// LabelSelector matches containers that have every one of these
	// labels.
	LabelSelector map[string]string
}

// ExecSyncResult is the outcome of a command run with ExecSync.
type ExecSyncResult struct {
	Stdout   []byte
	Stderr   []byte
	ExitCode int32
}

// ExecStreams are the streams of an Exec. A nil stream is not attached:
// no stdin reads as empty, and output to a nil writer is dropped.
//
// Upstream: the streams the kubelet's streaming server hands to
// Runtime.Exec (k8s.io/kubelet/pkg/cri/streaming, Runtime).
type ExecStreams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// TTY runs the command on a terminal: one output (stderr goes to
	// Stdout), lines ending in CR LF.
	TTY bool
}
