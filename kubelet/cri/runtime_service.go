package cri

import (
	"context"
	"io"
	"net"
	"time"
)

// RuntimeService is everything the kubelet asks of a container runtime
// except images. Implementations are safe for concurrent use.
//
// Upstream: k8s.io/cri-api/pkg/apis (RuntimeService).
type RuntimeService interface {
	PodSandboxManager
	ContainerManager
	ContainerLogReader
}

// PodSandboxManager runs pod sandboxes: the pause container holding the
// pod's namespaces, plus its network.
//
// Upstream: k8s.io/cri-api/pkg/apis (PodSandboxManager).
type PodSandboxManager interface {
	// RunPodSandbox creates and starts a sandbox: it starts the pause
	// container and sets up the network through CNI. It returns the
	// sandbox ID. A sandbox with the same metadata that was not removed
	// yet fails with ErrAlreadyExists.
	RunPodSandbox(ctx context.Context, config PodSandboxConfig) (string, error)
	// StopPodSandbox kills every container of the sandbox at once (the
	// kubelet stops them gracefully first), stops the pause container and
	// tears down the network, releasing the IP. It is idempotent and
	// returns nil for a sandbox that was already removed.
	StopPodSandbox(ctx context.Context, podSandboxID string) error
	// RemovePodSandbox stops the sandbox if needed and removes it and its
	// containers. It is idempotent.
	RemovePodSandbox(ctx context.Context, podSandboxID string) error
	// PodSandboxStatus returns the sandbox's status, or ErrNotFound.
	PodSandboxStatus(ctx context.Context, podSandboxID string) (PodSandboxStatus, error)
	// ListPodSandbox returns the sandboxes that match filter, oldest first.
	ListPodSandbox(ctx context.Context, filter PodSandboxFilter) ([]PodSandbox, error)
	// PortForward connects to port inside the sandbox's network, as
	// `kubectl port-forward` does: to what a container of the pod listens
	// on there. The caller closes the connection. A sandbox that is not
	// ready gives ErrFailedPrecondition; a port nobody listens on, the
	// dial's error (connection refused).
	PortForward(ctx context.Context, podSandboxID string, port uint16) (net.Conn, error)
}

// ContainerManager creates and runs containers inside sandboxes.
//
// Upstream: k8s.io/cri-api/pkg/apis (ContainerManager), of which this is
// the part minicp's kubelet uses.
type ContainerManager interface {
	// CreateContainer creates a container in the sandbox; it does not start
	// it. The image must have been pulled (ErrNotFound otherwise), and the
	// sandbox must be ready (ErrFailedPrecondition otherwise). It returns
	// the container ID.
	CreateContainer(ctx context.Context, podSandboxID string, config ContainerConfig) (string, error)
	// StartContainer starts a created container. If the container's
	// command cannot be run the container goes to ContainerExited with
	// ExitCode 128 and Reason StartError, and StartContainer returns an
	// error.
	StartContainer(ctx context.Context, containerID string) error
	// StopContainer sends the container's process SIGTERM and, if it has
	// not exited after timeout, SIGKILL (exit code 137). A timeout of 0
	// kills at once. It blocks until the container has exited or ctx is
	// done; if ctx ends first it returns ctx.Err() and the container keeps
	// the SIGTERM it got but is not killed. Stopping a container that is
	// not running returns nil.
	StopContainer(ctx context.Context, containerID string, timeout time.Duration) error
	// RemoveContainer removes the container, killing it first if it runs.
	// It is idempotent.
	RemoveContainer(ctx context.Context, containerID string) error
	// ListContainers returns the containers that match filter, oldest
	// first. Pause containers are part of their sandbox, not listed.
	ListContainers(ctx context.Context, filter ContainerFilter) ([]Container, error)
	// ContainerStatus returns the container's status, or ErrNotFound.
	ContainerStatus(ctx context.Context, containerID string) (ContainerStatus, error)
	// ExecSync runs cmd in the running container and returns its output
	// and exit code, as exec probes and non-interactive `kubectl exec` do.
	// A timeout of 0 means none; when it passes ExecSync returns an error
	// wrapping context.DeadlineExceeded. A container that is not running
	// gives ErrFailedPrecondition.
	ExecSync(ctx context.Context, containerID string, cmd []string, timeout time.Duration) (ExecSyncResult, error)
	// Exec runs cmd in the running container with the streams of
	// `kubectl exec` and returns its exit code once it ends. It returns
	// an error, and no exit code, when the command could not run (a
	// container that is not running: ErrFailedPrecondition) or when ctx
	// ended it.
	Exec(ctx context.Context, containerID string, cmd []string, streams ExecStreams) (int32, error)
	// AttachStdin copies stdin to the stdin of the container's main
	// process, as `kubectl attach -i` does, until stdin ends or ctx is
	// done; with StdinOnce its end closes the process's stdin. A
	// container without Stdin drops what it is given. What the process
	// writes is its log (ContainerLogs).
	AttachStdin(ctx context.Context, containerID string, stdin io.Reader) error
}

// ContainerLogReader reads container logs, the stream `kubectl logs`
// shows.
type ContainerLogReader interface {
	// ContainerLogs returns the container's log as text, one line per
	// line the container wrote, optionally prefixed with its time (see
	// LogOptions). With Follow the reader blocks for new lines and returns
	// io.EOF once the container has exited and every line was read, or
	// ctx.Err() when ctx is done. The caller closes the reader, which
	// unblocks a pending Read. ErrNotFound if there is no such container.
	ContainerLogs(ctx context.Context, containerID string, opts LogOptions) (io.ReadCloser, error)
}

// ContainerLogReaderFunc adapts a function to ContainerLogReader.
type ContainerLogReaderFunc func(ctx context.Context, containerID string, opts LogOptions) (io.ReadCloser, error)

// ContainerLogs calls f.
func (f ContainerLogReaderFunc) ContainerLogs(ctx context.Context, containerID string, opts LogOptions) (io.ReadCloser, error) {
	return f(ctx, containerID, opts)
}

// LogStream is the stream a log line was written to.
type LogStream string

// The log streams.
const (
	Stdout LogStream = "stdout"
	Stderr LogStream = "stderr"
)

// LogOptions selects and formats log lines. The zero value returns every
// line of both streams without timestamps and does not follow.
//
// Upstream: k8s.io/api/core/v1 (PodLogOptions), which the kubelet turns
// into these.
type LogOptions struct {
	// Follow keeps the reader open for new lines until the container
	// exits.
	Follow bool
	// TailLines, when not nil, starts at the last *TailLines lines that
	// match the other options (0: none, only new ones when following).
	TailLines *int64
	// SinceTime, when not zero, skips lines written before it.
	SinceTime time.Time
	// Timestamps prefixes each line with the time it was written,
	// formatted as TimestampFormat, and a space.
	Timestamps bool
	// LimitBytes, when positive, ends the stream after that many bytes.
	LimitBytes int64
	// Stream, when set, returns only that stream's lines.
	Stream LogStream
}

// TimestampFormat is RFC 3339 with nanoseconds and a fixed width, as the
// kubelet writes log timestamps.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/kuberuntime/logs (timeFormatOut).
const TimestampFormat = "2006-01-02T15:04:05.000000000Z07:00"
