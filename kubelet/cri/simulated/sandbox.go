package simulated

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"time"

	"github.com/minicp/minicp/kubelet/cni"
	"github.com/minicp/minicp/kubelet/cri"
)

// sandbox is a pod sandbox: the pause container that holds the pod's
// namespaces, its network, and the containers created in it. Its fields
// are guarded by Runtime.mu.
type sandbox struct {
	id        string
	seq       uint64
	config    cri.PodSandboxConfig
	nameKey   string
	hostname  string
	state     cri.PodSandboxState
	createdAt time.Time
	// pauseID is the pause container's ID. The pause process does nothing
	// but exist (it holds the namespaces and reaps zombies), so the
	// runtime keeps no process for it; it is not listed among the
	// containers, as containerd does not list it.
	pauseID string
	// ip is the pod IP while the sandbox is ready.
	ip netip.Addr
	// ports are the ports taken in the sandbox's network namespace, which
	// its containers share: two containers of a pod cannot both listen on
	// 80.
	ports      map[int32]*binding
	containers map[string]*container
}

// binding is a port a container's server holds. host is the real
// loopback address serving it, for HTTP servers once they listen.
type binding struct {
	c    *container
	host netip.AddrPort
}

func (sb *sandbox) ipString() string {
	if !sb.ip.IsValid() {
		return ""
	}
	return sb.ip.String()
}

func sandboxKey(m cri.PodSandboxMetadata) string {
	return fmt.Sprintf("sandbox/%s_%s_%s_%d", m.Name, m.Namespace, m.UID, m.Attempt)
}

func (r *Runtime) sandboxLocked(id string) (*sandbox, error) {
	sb, ok := r.sandboxes[id]
	if !ok {
		return nil, fmt.Errorf("sandbox %q: %w", id, cri.ErrNotFound)
	}
	return sb, nil
}

// RunPodSandbox creates a sandbox: it starts the pause container, then
// asks the network plugin for the pod's IP. See cri.PodSandboxManager.
func (r *Runtime) RunPodSandbox(ctx context.Context, config cri.PodSandboxConfig) (string, error) {
	m := config.Metadata
	if m.Name == "" || m.Namespace == "" {
		return "", fmt.Errorf("run pod sandbox: metadata.name and metadata.namespace are required: %w", cri.ErrFailedPrecondition)
	}
	key := sandboxKey(m)
	sb := &sandbox{
		id:         newID(),
		config:     config,
		nameKey:    key,
		hostname:   cmp.Or(config.Hostname, m.Name),
		ports:      map[int32]*binding{},
		containers: map[string]*container{},
		pauseID:    newID(),
	}
	sb.config.Labels = maps.Clone(config.Labels)
	sb.config.Annotations = maps.Clone(config.Annotations)

	r.lock()
	if r.stopped {
		r.unlock()
		return "", fmt.Errorf("run pod sandbox %s/%s: %w", m.Namespace, m.Name, ErrStopped)
	}
	if other, ok := r.names[key]; ok {
		r.unlock()
		return "", fmt.Errorf("run pod sandbox %s/%s (attempt %d): the name is reserved for %s: %w", m.Namespace, m.Name, m.Attempt, other, cri.ErrAlreadyExists)
	}
	// Reserve the name while the network is set up without mu.
	r.names[key] = sb.id
	r.addImageLocked(r.pauseRef())
	r.unlock()

	rt := cni.RuntimeConf{ContainerID: sb.id, NetNS: "/var/run/netns/cni-" + sb.id[:16], IfName: "eth0"}
	res, err := r.network.Add(ctx, rt)

	r.lock()
	defer r.unlock()
	if err == nil && r.stopped {
		err = ErrStopped
		r.effects = append(r.effects, func() { _ = r.network.Del(context.WithoutCancel(ctx), rt) })
	}
	if err != nil {
		delete(r.names, key)
		return "", fmt.Errorf("run pod sandbox %s/%s: failed to setup network for sandbox %q: %w", m.Namespace, m.Name, sb.id, err)
	}
	sb.seq = r.nextSeqLocked()
	sb.ip = res.IP.Addr()
	sb.state = cri.SandboxReady
	sb.createdAt = r.clock.Now()
	r.sandboxes[sb.id] = sb
	r.sandboxByIP[sb.ip] = sb
	r.changedLocked()
	r.logger.Debug("sandbox ready", "hop", "runtime.sandbox", "pod", m.Name, "namespace", m.Namespace, "uid", m.UID,
		"pause", sb.pauseID[:12], "ip", sb.ip)
	return sb.id, nil
}

// stopSandboxLocked kills the sandbox's containers and takes its
// network down; the caller releases the IP with the plugin.
func (r *Runtime) stopSandboxLocked(sb *sandbox) {
	now := r.clock.Now()
	for _, c := range sb.containers {
		r.exitLocked(c, exit{code: 137, reason: cri.ReasonError, message: "killed: the pod sandbox was stopped", at: now})
	}
	sb.state = cri.SandboxNotReady
	delete(r.sandboxByIP, sb.ip)
	sb.ip = netip.Addr{}
	r.changedLocked()
}

// StopPodSandbox stops a sandbox; see cri.PodSandboxManager.
func (r *Runtime) StopPodSandbox(ctx context.Context, podSandboxID string) error {
	r.lock()
	sb, ok := r.sandboxes[podSandboxID]
	if !ok || sb.state != cri.SandboxReady {
		r.unlock()
		return nil
	}
	r.stopSandboxLocked(sb)
	// unlock closes the servers of killed containers before the network
	// goes.
	r.unlock()
	if err := r.network.Del(ctx, cni.RuntimeConf{ContainerID: podSandboxID, IfName: "eth0"}); err != nil {
		return fmt.Errorf("stop pod sandbox %s: failed to destroy network: %w", podSandboxID, err)
	}
	return nil
}

// RemovePodSandbox removes a sandbox and its containers; see
// cri.PodSandboxManager.
func (r *Runtime) RemovePodSandbox(ctx context.Context, podSandboxID string) error {
	if err := r.StopPodSandbox(ctx, podSandboxID); err != nil {
		return err
	}
	r.lock()
	defer r.unlock()
	sb, ok := r.sandboxes[podSandboxID]
	if !ok {
		return nil
	}
	for _, c := range sb.containers {
		r.removeLocked(c)
	}
	delete(r.sandboxes, sb.id)
	delete(r.names, sb.nameKey)
	r.changedLocked()
	return nil
}

// PodSandboxStatus returns a sandbox's status.
func (r *Runtime) PodSandboxStatus(ctx context.Context, podSandboxID string) (cri.PodSandboxStatus, error) {
	r.lock()
	defer r.unlock()
	sb, err := r.sandboxLocked(podSandboxID)
	if err != nil {
		return cri.PodSandboxStatus{}, err
	}
	return cri.PodSandboxStatus{
		ID: sb.id, Metadata: sb.config.Metadata, State: sb.state, CreatedAt: sb.createdAt,
		Network: cri.PodSandboxNetworkStatus{IP: sb.ipString()}, Hostname: sb.hostname,
		Labels: maps.Clone(sb.config.Labels), Annotations: maps.Clone(sb.config.Annotations),
	}, nil
}

// ListPodSandbox returns the sandboxes that match filter, oldest first.
func (r *Runtime) ListPodSandbox(ctx context.Context, filter cri.PodSandboxFilter) ([]cri.PodSandbox, error) {
	r.lock()
	defer r.unlock()
	var out []*sandbox
	for _, sb := range r.sandboxes {
		if (filter.ID == "" || sb.id == filter.ID) && (filter.State == "" || sb.state == filter.State) &&
			matchLabels(filter.LabelSelector, sb.config.Labels) {
			out = append(out, sb)
		}
	}
	slices.SortFunc(out, func(a, b *sandbox) int { return cmp.Compare(a.seq, b.seq) })
	list := make([]cri.PodSandbox, len(out))
	for i, sb := range out {
		list[i] = cri.PodSandbox{
			ID: sb.id, Metadata: sb.config.Metadata, State: sb.state, CreatedAt: sb.createdAt,
			Labels: maps.Clone(sb.config.Labels), Annotations: maps.Clone(sb.config.Annotations),
		}
	}
	return list, nil
}
