package simulated

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// container is one container and its simulated process. Its fields are
// guarded by Runtime.mu.
//
//	created --StartContainer--> running --process ends, or stop/kill--> exited
//	                               |                                      ^
//	                               +--has servers: dying (closing them)---+
type container struct {
	id      string
	seq     uint64
	sb      *sandbox
	config  cri.ContainerConfig
	nameKey string
	// clusterNet is the runtime's ClusterNetwork, or nil.
	clusterNet ClusterNetwork
	profile    *imageProfile
	// imageRef is the ID of the image it was created from.
	imageRef   string
	state      cri.ContainerState
	createdAt  time.Time
	startedAt  time.Time
	finishedAt time.Time
	exitCode   int32
	reason     string
	message    string
	// proc is the process while the container runs; fs its files.
	proc *shell.Process
	// cancelIO ends the network I/O proc waits for, if any.
	cancelIO context.CancelFunc
	fs       *shell.FS
	// kind and ports describe the server proc runs, if any: ports are
	// held in the sandbox's ports, and servers listen on the HTTP ones.
	kind    serverKind
	ports   []int32
	servers []*httpServer
	// program is the image's Program, if programmable; run is its
	// current run, attached with its servers.
	program Program
	run     *programRun
	// dying is set while a container that ended closes its servers; it
	// is still running until they are closed.
	dying    bool
	log      containerLog
	exitedCh chan struct{}
	// stdin is the main shell's stdin, when it reads one (see mainStdin).
	stdin *mainStdin
}

// exit is how a process ended.
type exit struct {
	code    int32
	reason  string
	message string
	at      time.Time
}

func exitWithCode(code int, at time.Time) exit {
	if code == 0 {
		return exit{reason: cri.ReasonCompleted, at: at}
	}
	return exit{code: int32(code), reason: cri.ReasonError, at: at}
}

func containerKey(sandboxID string, m cri.ContainerMetadata) string {
	return fmt.Sprintf("container/%s/%s/%d", sandboxID, m.Name, m.Attempt)
}

func (r *Runtime) containerLocked(id string) (*container, error) {
	c, ok := r.containers[id]
	if !ok {
		return nil, fmt.Errorf("container %q: %w", id, cri.ErrNotFound)
	}
	return c, nil
}

// CreateContainer creates a container; see cri.ContainerManager. The
// runtime keeps copies of config's slices and maps.
func (r *Runtime) CreateContainer(ctx context.Context, podSandboxID string, config cri.ContainerConfig) (string, error) {
	if config.Metadata.Name == "" {
		return "", fmt.Errorf("create container: metadata.name is required: %w", cri.ErrFailedPrecondition)
	}
	r.lock()
	defer r.unlock()
	sb, err := r.sandboxLocked(podSandboxID)
	if err != nil {
		return "", fmt.Errorf("create container %s: %w", config.Metadata.Name, err)
	}
	if sb.state != cri.SandboxReady {
		return "", fmt.Errorf("create container %s: sandbox %s is not ready: %w", config.Metadata.Name, podSandboxID, cri.ErrFailedPrecondition)
	}
	im, err := r.findImageLocked(config.Image)
	if err != nil {
		return "", fmt.Errorf("create container %s: %w", config.Metadata.Name, err)
	}
	if im == nil {
		return "", fmt.Errorf("create container %s: image %q: %w", config.Metadata.Name, config.Image, cri.ErrNotFound)
	}
	key := containerKey(podSandboxID, config.Metadata)
	if other, ok := r.names[key]; ok {
		return "", fmt.Errorf("create container %s (attempt %d): the name is reserved for %s: %w",
			config.Metadata.Name, config.Metadata.Attempt, other, cri.ErrAlreadyExists)
	}
	c := &container{
		id:         newID(),
		seq:        r.nextSeqLocked(),
		sb:         sb,
		config:     cloneContainerConfig(config),
		nameKey:    key,
		profile:    im.profile,
		program:    im.program,
		imageRef:   im.id,
		clusterNet: r.clusterNet,
		state:      cri.ContainerCreated,
		createdAt:  r.clock.Now(),
		exitedCh:   make(chan struct{}),
		log:        containerLog{max: r.maxLogBytes, unbuffered: config.TTY},
	}
	r.names[key] = c.id
	r.containers[c.id] = c
	sb.containers[c.id] = c
	r.changedLocked()
	return c.id, nil
}

func cloneContainerConfig(c cri.ContainerConfig) cri.ContainerConfig {
	c.Command = slices.Clone(c.Command)
	c.Args = slices.Clone(c.Args)
	c.Envs = slices.Clone(c.Envs)
	c.Ports = slices.Clone(c.Ports)
	c.Mounts = slices.Clone(c.Mounts)
	for i := range c.Mounts {
		c.Mounts[i].Files = maps.Clone(c.Mounts[i].Files)
	}
	c.Labels = maps.Clone(c.Labels)
	c.Annotations = maps.Clone(c.Annotations)
	return c
}

// defaultPath is the PATH of every image.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// environ is the environment of c's processes, in the order a real
// container has it: PATH from the image, HOSTNAME from the runtime, the
// container's own variables, then HOME.
func (c *container) environ() []string {
	env := make([]string, 0, len(c.config.Envs)+3)
	env = append(env, "PATH="+defaultPath, "HOSTNAME="+c.sb.hostname)
	home := false
	for _, kv := range c.config.Envs {
		env = append(env, kv.Key+"="+kv.Value)
		home = home || kv.Key == "HOME"
	}
	if !home {
		env = append(env, "HOME=/root")
	}
	return env
}

// resolve returns argv's program as the image has it, or the error runc
// gives for a program that is not there.
func (c *container) resolve(argv []string) error {
	name := path.Base(argv[0])
	p := c.profile
	if _, ok := p.server(name); ok || p.unknown || p.shell && (shell.IsShell(name) || shell.IsBuiltin(name)) {
		return nil
	}
	return fmt.Errorf("exec: %q: executable file not found in $PATH", argv[0])
}

// newProcess returns a process running argv in c, reading stdin; an
// interactive one is a shell that reads its commands from its user.
func (c *container) newProcess(argv []string, host shell.Host, stdin string, interactive bool) *shell.Process {
	program := path.Base(argv[0])
	p := c.profile
	var nw shell.Network
	if c.clusterNet != nil {
		nw = podNetwork{net: c.clusterNet, namespace: c.sb.config.Metadata.Namespace}
	}
	return shell.NewProcess(argv, shell.Config{
		Network:     nw,
		Env:         c.environ(),
		Hostname:    c.sb.hostname,
		IP:          c.sb.ipString(),
		WorkingDir:  c.config.WorkingDir,
		FS:          c.fs,
		Host:        host,
		Stdin:       stdin,
		Interactive: interactive,
		Servers: func(name string) bool {
			if _, ok := p.server(name); ok {
				return true
			}
			// An unknown image's own program is its server.
			return p.unknown && name == program && !shell.IsShell(name) && !shell.IsBuiltin(name)
		},
	})
}

// StartContainer starts a created container: its process runs at once
// until it first sleeps, serves or exits. See cri.ContainerManager.
func (r *Runtime) StartContainer(ctx context.Context, containerID string) error {
	r.lock()
	defer r.unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return fmt.Errorf("start container: %w", err)
	}
	switch {
	case r.stopped:
		return fmt.Errorf("start container %s: %w", containerID, ErrStopped)
	case c.state != cri.ContainerCreated:
		return fmt.Errorf("start container %s: it is %s: %w", containerID, c.state, cri.ErrFailedPrecondition)
	case c.sb.state != cri.SandboxReady:
		return fmt.Errorf("start container %s: sandbox %s is not ready: %w", containerID, c.sb.id, cri.ErrFailedPrecondition)
	}
	now := r.clock.Now()
	argv := c.profile.argv(c.config.Command, c.config.Args)
	if err := c.resolve(argv); err != nil {
		// The process never ran: runc failed to exec it.
		msg := "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: " + err.Error() + ": unknown"
		c.state = cri.ContainerExited
		c.finishedAt, c.exitCode, c.reason, c.message = now, 128, cri.ReasonStartError, msg
		c.log.close()
		close(c.exitedCh)
		r.changedLocked()
		return fmt.Errorf("start container %s: %s", containerID, msg)
	}
	c.fs = shell.NewFS(map[string]string{
		"/etc/hostname": c.sb.hostname + "\n",
		"/etc/hosts":    "127.0.0.1\tlocalhost\n" + c.sb.ipString() + "\t" + c.sb.hostname + "\n",
	})
	for _, m := range c.config.Mounts {
		c.fs.Mount(m.ContainerPath, m.Files, m.Readonly)
	}
	interactive := c.config.Stdin && isInteractiveShell(argv)
	if interactive {
		c.stdin = &mainStdin{}
	}
	c.proc = c.newProcess(argv, c, "", interactive)
	c.state, c.startedAt = cri.ContainerRunning, now
	r.changedLocked()
	r.logger.Debug("container started", "hop", "runtime.container.start", "pod", c.sb.config.Metadata.Name,
		"namespace", c.sb.config.Metadata.Namespace, "name", c.config.Metadata.Name, "argv", strings.Join(argv, " "))
	r.resultLocked(c, c.proc.Run(now), now)
	return nil
}

// resultLocked acts on what c's process did when it last ran.
func (r *Runtime) resultLocked(c *container, res shell.Result, at time.Time) {
	switch res.Kind {
	case shell.Sleeping:
		if !res.Until.IsZero() {
			r.sleepLocked(c, res.Until)
		}
	case shell.Serving:
		r.serveLocked(c, res.Argv, at)
	case shell.Waiting:
		r.waitIOLocked(c, res.IO)
	case shell.Exited:
		r.exitLocked(c, exitWithCode(res.ExitCode, at))
	case shell.Prompting:
		r.promptLocked(c, at)
	}
}

// exitLocked ends a running container's process. A container with HTTP
// servers exits only once they are closed, after mu is released, so that
// nobody sees it exited while its ports still answer.
func (r *Runtime) exitLocked(c *container, ex exit) {
	if c.state != cri.ContainerRunning || c.dying {
		return
	}
	r.cancelSleepLocked(c)
	if c.cancelIO != nil {
		c.cancelIO()
		c.cancelIO = nil
	}
	c.proc = nil
	if len(c.servers) == 0 && c.run == nil {
		r.finishLocked(c, ex)
		return
	}
	servers, run := c.servers, c.run
	c.servers, c.run, c.dying = nil, nil, true
	r.effects = append(r.effects, func() {
		closeServers(servers)
		// A program's goroutines end before its container is seen
		// exited, as a process's threads end with it.
		if run != nil {
			run.stop()
		}
		r.lock()
		r.finishLocked(c, ex)
		r.unlock()
	})
}

func (r *Runtime) finishLocked(c *container, ex exit) {
	c.dying = false
	c.state = cri.ContainerExited
	c.finishedAt, c.exitCode, c.reason, c.message = ex.at, ex.code, ex.reason, ex.message
	for _, port := range c.ports {
		if b := c.sb.ports[port]; b != nil && b.c == c {
			delete(c.sb.ports, port)
		}
	}
	c.ports = nil
	c.log.close()
	close(c.exitedCh)
	r.changedLocked()
	r.logger.Debug("container exited", "hop", "runtime.container.exit", "pod", c.sb.config.Metadata.Name,
		"namespace", c.sb.config.Metadata.Namespace, "name", c.config.Metadata.Name, "exitCode", ex.code, "reason", ex.reason)
}

// StopContainer stops a container; see cri.ContainerManager. The grace
// timer belongs to the call: it runs on the runtime's clock in the
// caller's goroutine.
func (r *Runtime) StopContainer(ctx context.Context, containerID string, timeout time.Duration) error {
	r.lock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		r.unlock()
		return fmt.Errorf("stop container: %w", err)
	}
	exited := c.exitedCh
	if c.state != cri.ContainerRunning {
		r.unlock()
		return nil
	}
	termAt := r.clock.Now()
	switch {
	case c.dying:
	case timeout <= 0:
		r.exitLocked(c, exit{code: 137, reason: cri.ReasonError, message: "killed with SIGKILL (no grace period)", at: termAt})
	case c.proc.Signal("TERM"):
		r.serverStoppedLocked(c, termAt)
		r.exitLocked(c, exitWithCode(0, termAt))
	}
	r.unlock()

	select {
	case <-exited:
		return nil
	default:
	}
	var grace <-chan time.Time
	if timeout > 0 {
		t := r.clock.NewTimer(timeout)
		defer t.Stop()
		grace = t.C()
	}
	// From here on only the clock ends the wait: the process exits by
	// itself (a sleep ending) or at the SIGKILL.
	cri.StopWaiting(ctx)
	select {
	case <-exited:
		return nil
	case <-grace:
		r.lock()
		// lock ran what was due first: a process that ended within the
		// grace period exited by itself.
		r.exitLocked(c, exit{code: 137, reason: cri.ReasonError, at: termAt.Add(timeout),
			message: fmt.Sprintf("did not exit within %v of SIGTERM: killed with SIGKILL", timeout)})
		r.unlock()
	case <-ctx.Done():
		return fmt.Errorf("stop container %s: %w", containerID, ctx.Err())
	}
	select {
	case <-exited:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop container %s: %w", containerID, ctx.Err())
	}
}

// OOMKill kills a running container as the kernel's OOM killer would:
// exit code 137, reason OOMKilled. It is a fault for tests; nothing
// simulates memory.
func (r *Runtime) OOMKill(containerID string) error {
	r.lock()
	defer r.unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return fmt.Errorf("oom kill: %w", err)
	}
	if c.state != cri.ContainerRunning {
		return fmt.Errorf("oom kill %s: it is %s: %w", containerID, c.state, cri.ErrFailedPrecondition)
	}
	r.exitLocked(c, exit{code: 137, reason: cri.ReasonOOMKilled, at: r.clock.Now()})
	return nil
}

// RemoveContainer removes a container, killing it first if it runs.
func (r *Runtime) RemoveContainer(ctx context.Context, containerID string) error {
	r.lock()
	defer r.unlock()
	c, ok := r.containers[containerID]
	if !ok {
		return nil
	}
	r.exitLocked(c, exit{code: 137, reason: cri.ReasonError, message: "killed: the container was removed", at: r.clock.Now()})
	r.removeLocked(c)
	return nil
}

func (r *Runtime) removeLocked(c *container) {
	delete(r.containers, c.id)
	delete(c.sb.containers, c.id)
	delete(r.names, c.nameKey)
	c.log.close()
	r.changedLocked()
}

// ContainerStatus returns a container's status.
func (r *Runtime) ContainerStatus(ctx context.Context, containerID string) (cri.ContainerStatus, error) {
	r.lock()
	defer r.unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return cri.ContainerStatus{}, err
	}
	return cri.ContainerStatus{
		ID: c.id, PodSandboxID: c.sb.id, Metadata: c.config.Metadata, State: c.state,
		CreatedAt: c.createdAt, StartedAt: c.startedAt, FinishedAt: c.finishedAt,
		ExitCode: c.exitCode, Reason: c.reason, Message: c.message,
		Image: c.config.Image, ImageRef: c.imageRef,
		Labels: maps.Clone(c.config.Labels), Annotations: maps.Clone(c.config.Annotations),
	}, nil
}

// ListContainers returns the containers that match filter, oldest first.
func (r *Runtime) ListContainers(ctx context.Context, filter cri.ContainerFilter) ([]cri.Container, error) {
	r.lock()
	defer r.unlock()
	var out []*container
	for _, c := range r.containers {
		if (filter.ID == "" || c.id == filter.ID) && (filter.State == "" || c.state == filter.State) &&
			(filter.PodSandboxID == "" || c.sb.id == filter.PodSandboxID) && matchLabels(filter.LabelSelector, c.config.Labels) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *container) int { return cmp.Compare(a.seq, b.seq) })
	list := make([]cri.Container, len(out))
	for i, c := range out {
		list[i] = cri.Container{
			ID: c.id, PodSandboxID: c.sb.id, Metadata: c.config.Metadata, Image: c.config.Image,
			ImageRef: c.imageRef, State: c.state, CreatedAt: c.createdAt,
			Labels: maps.Clone(c.config.Labels), Annotations: maps.Clone(c.config.Annotations),
		}
	}
	return list, nil
}

func matchLabels(selector, labels map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
