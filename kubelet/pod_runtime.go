package kubelet

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// podRuntime is a pod as its runtime has it: its sandboxes and the
// containers of each name, newest attempt first. The kubelet reads it at
// every sync rather than remembering it, so what it reports is what runs.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/container (PodStatus).
type podRuntime struct {
	// sandboxes are oldest first; sandbox is the newest one's status, nil
	// when the pod has none.
	sandboxes []cri.PodSandbox
	sandbox   *cri.PodSandboxStatus
	// containers holds, by container name, the statuses of the newest
	// attempts, newest first (keptAttempts of them at most).
	containers map[string][]cri.ContainerStatus
	// stale are older attempts to garbage-collect.
	stale []string
}

// keptAttempts is how many runs of a container the kubelet keeps: the
// current one, and the previous one for `kubectl logs --previous` and
// lastState. Upstream keeps one dead container per name by default
// (--maximum-dead-containers-per-container=1).
const keptAttempts = 2

// readPodRuntime lists the pod's sandboxes and containers by its UID
// label.
func (k *Kubelet) readPodRuntime(ctx context.Context, uid string) (*podRuntime, error) {
	sel := map[string]string{labelPodUID: uid}
	sandboxes, err := k.runtime.ListPodSandbox(ctx, cri.PodSandboxFilter{LabelSelector: sel})
	if err != nil {
		return nil, fmt.Errorf("list sandboxes: %w", err)
	}
	rt := &podRuntime{sandboxes: sandboxes, containers: map[string][]cri.ContainerStatus{}}
	if n := len(sandboxes); n > 0 {
		st, err := k.runtime.PodSandboxStatus(ctx, sandboxes[n-1].ID)
		switch {
		case err == nil:
			rt.sandbox = &st
		case !errors.Is(err, cri.ErrNotFound):
			return nil, fmt.Errorf("sandbox status: %w", err)
		}
	}
	containers, err := k.runtime.ListContainers(ctx, cri.ContainerFilter{LabelSelector: sel})
	if err != nil {
		return nil, fmt.Errorf("list containers: %w", err)
	}
	// Newest attempt first; among equal attempts (one per sandbox) the
	// newest container.
	slices.SortFunc(containers, func(a, b cri.Container) int {
		if c := cmp.Compare(b.Metadata.Attempt, a.Metadata.Attempt); c != 0 {
			return c
		}
		return b.CreatedAt.Compare(a.CreatedAt)
	})
	for _, c := range containers {
		name := c.Labels[labelContainerName]
		if len(rt.containers[name]) == keptAttempts {
			rt.stale = append(rt.stale, c.ID)
			continue
		}
		st, err := k.runtime.ContainerStatus(ctx, c.ID)
		if errors.Is(err, cri.ErrNotFound) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("container status: %w", err)
		}
		rt.containers[name] = append(rt.containers[name], st)
	}
	return rt, nil
}

// latest returns the newest run of the container called name, or nil.
func (rt *podRuntime) latest(name string) *cri.ContainerStatus {
	if cs := rt.containers[name]; len(cs) > 0 {
		return &cs[0]
	}
	return nil
}

// previous returns the run before the newest, or nil.
func (rt *podRuntime) previous(name string) *cri.ContainerStatus {
	if cs := rt.containers[name]; len(cs) > 1 {
		return &cs[1]
	}
	return nil
}

// sandboxReady returns the newest sandbox if it is ready.
func (rt *podRuntime) sandboxReady() *cri.PodSandboxStatus {
	if rt.sandbox != nil && rt.sandbox.State == cri.SandboxReady {
		return rt.sandbox
	}
	return nil
}

// running returns the running containers of the pod's spec, init
// containers first.
func (rt *podRuntime) running(pod *corev1.Pod) []*cri.ContainerStatus {
	var out []*cri.ContainerStatus
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if c := rt.latest(cs[i].Name); c != nil && c.State == cri.ContainerRunning {
				out = append(out, c)
			}
		}
	}
	return out
}

// removeStale removes the container runs beyond keptAttempts.
func (k *Kubelet) removeStale(ctx context.Context, rt *podRuntime) {
	for _, id := range rt.stale {
		if err := k.runtime.RemoveContainer(ctx, id); err != nil && ctx.Err() == nil {
			k.log.Warn("removing an old container failed", "container", id, "err", err)
		}
	}
	rt.stale = nil
}

// stopSandboxes stops the pod's ready sandboxes, which releases their IPs
// (the runtime calls CNI Del). Containers and their logs stay.
func (k *Kubelet) stopSandboxes(ctx context.Context, rt *podRuntime) {
	for _, sb := range rt.sandboxes {
		if sb.State != cri.SandboxReady {
			continue
		}
		if err := k.runtime.StopPodSandbox(ctx, sb.ID); err != nil && ctx.Err() == nil {
			k.log.Warn("stopping a sandbox failed", "sandbox", sb.ID, "err", err)
		}
	}
}
