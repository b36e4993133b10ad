package kubelet

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/tracing"
)

// startContainer runs one attempt of a container in the pod's sandbox:
// it sets up the pod's volumes (once per sync), makes sure the image is
// there, resolves the env, creates the container and starts it,
// recording Created and Started (or why not) as events and, for a
// container that could not be created, as its waiting reason.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/kuberuntime (startContainer).
func (k *Kubelet) startContainer(ctx context.Context, pod *corev1.Pod, c *corev1.Container, sb *cri.PodSandboxStatus, attempt uint32, st *podState, res *syncResult) {
	if !k.setUpVolumes(ctx, pod, st, res) || !k.ensureImage(ctx, pod, c, st, res) {
		return
	}
	cfg, err := k.containerConfig(ctx, pod, c, sb, attempt, st.volumes)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		st.setWaiting(c.Name, "CreateContainerConfigError", err.Error())
		k.event(pod, corev1.EventTypeWarning, "Failed", "Error: %v", err)
		res.wakeAtOrEarlier(k.clock.Now().Add(retryPeriod))
		return
	}
	id, err := k.runtime.CreateContainer(ctx, sb.ID, cfg)
	if err != nil {
		if ctx.Err() == nil {
			st.setWaiting(c.Name, "CreateContainerError", err.Error())
			k.event(pod, corev1.EventTypeWarning, "Failed", "Error: %v", err)
			res.wakeAtOrEarlier(k.clock.Now().Add(retryPeriod))
		}
		return
	}
	// From here on the container exists, and its own state says how it
	// is doing.
	delete(st.waiting, c.Name)
	k.event(pod, corev1.EventTypeNormal, "Created", "Created container: %s", c.Name)
	if err := k.runtime.StartContainer(ctx, id); err != nil {
		if ctx.Err() == nil {
			k.event(pod, corev1.EventTypeWarning, "Failed", "Error: %v", err)
		}
		return
	}
	k.event(pod, corev1.EventTypeNormal, "Started", "Started container %s", c.Name)
	k.log.Debug("container started", "hop", "kubelet.container.start", "namespace", pod.Namespace, "pod", pod.Name,
		"container", c.Name, "attempt", attempt)
	tracing.Mark(ctx, k.component(), tracing.HopRuntimeContainer, attribute.String("container", c.Name), attribute.Int("attempt", int(attempt)))
}

// ensureImage makes sure the container's image is on the node, pulling it
// as its imagePullPolicy says. A failed pull makes the container wait
// with ErrImagePull, then with ImagePullBackOff until the pull's backoff
// ends and it is pulled again. It reports whether the image is there.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/images (imageManager.EnsureImageExists).
func (k *Kubelet) ensureImage(ctx context.Context, pod *corev1.Pod, c *corev1.Container, st *podState, res *syncResult) bool {
	image := c.Image
	policy := c.ImagePullPolicy
	if policy == "" {
		policy = defaultPullPolicy(image)
	}
	if policy != corev1.PullAlways {
		present, err := k.images.ImageStatus(ctx, image)
		if err != nil {
			if ctx.Err() == nil {
				st.setWaiting(c.Name, "ErrImageInspect", err.Error())
				k.event(pod, corev1.EventTypeWarning, "InspectFailed", "Failed to inspect image %q: %v", image, err)
				res.wakeAtOrEarlier(k.clock.Now().Add(retryPeriod))
			}
			return false
		}
		if present != nil {
			k.event(pod, corev1.EventTypeNormal, "Pulled", "Container image %q already present on machine", image)
			return true
		}
		if policy == corev1.PullNever {
			msg := fmt.Sprintf("Container image %q is not present with pull policy of Never", image)
			st.setWaiting(c.Name, "ErrImageNeverPull", msg)
			k.event(pod, corev1.EventTypeWarning, "ErrImageNeverPull", "%s", msg)
			return false
		}
	}
	key := "image/" + image
	if until, in := st.backoff.inBackOffSinceUpdate(key, k.clock.Now()); in {
		st.setWaiting(c.Name, "ImagePullBackOff", fmt.Sprintf("Back-off pulling image %q: ErrImagePull: %s", image, st.pullErrs[image]))
		k.event(pod, corev1.EventTypeNormal, "BackOff", "Back-off pulling image %q", image)
		res.wakeAtOrEarlier(until)
		return false
	}
	k.event(pod, corev1.EventTypeNormal, "Pulling", "Pulling image %q", image)
	start := k.clock.Now()
	ref, err := k.images.PullImage(ctx, image)
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		now := k.clock.Now()
		st.backoff.next(key, now, now)
		if st.pullErrs == nil {
			st.pullErrs = map[string]string{}
		}
		st.pullErrs[image] = err.Error()
		st.setWaiting(c.Name, "ErrImagePull", err.Error())
		k.event(pod, corev1.EventTypeWarning, "Failed", "Failed to pull image %q: %v", image, err)
		k.event(pod, corev1.EventTypeWarning, "Failed", "Error: ErrImagePull")
		// Sync again at once: the container then waits in
		// ImagePullBackOff until the backoff ends, as `kubectl get` shows.
		res.wakeAtOrEarlier(now)
		return false
	}
	delete(st.pullErrs, image)
	took := k.clock.Since(start).Round(time.Millisecond)
	var size uint64
	if im, err := k.images.ImageStatus(ctx, ref); err == nil && im != nil {
		size = im.Size
	}
	k.event(pod, corev1.EventTypeNormal, "Pulled", "Successfully pulled image %q in %v (%v including waiting). Image size: %d bytes.",
		image, took, took, size)
	return true
}

// defaultPullPolicy is the API server's default: Always for :latest or an
// untagged image, IfNotPresent otherwise.
func defaultPullPolicy(image string) corev1.PullPolicy {
	name := image
	if i := strings.Index(name, "@"); i >= 0 {
		return corev1.PullIfNotPresent
	}
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") && name[i+1:] != "latest" {
		return corev1.PullIfNotPresent
	}
	return corev1.PullAlways
}

// containerConfig is the CRI config of one attempt of c: the spec's
// command, args (with $(VAR) expanded) and env (with valueFrom resolved,
// ConfigMaps and Secrets read now), its ports, the mounts of its volumes
// that have files, and the labels that tie it to the pod.
func (k *Kubelet) containerConfig(ctx context.Context, pod *corev1.Pod, c *corev1.Container, sb *cri.PodSandboxStatus, attempt uint32,
	volumes map[string]volumeFiles) (cri.ContainerConfig, error) {
	envs, err := containerEnv(ctx, pod, c, sb.Network.IP, newConfigSource(k.cs, pod.Namespace))
	if err != nil {
		return cri.ContainerConfig{}, err
	}
	vars := make(map[string]string, len(envs))
	for _, kv := range envs {
		vars[kv.Key] = kv.Value
	}
	cfg := cri.ContainerConfig{
		Metadata:   cri.ContainerMetadata{Name: c.Name, Attempt: attempt},
		Image:      c.Image,
		Command:    expandAll(c.Command, vars),
		Args:       expandAll(c.Args, vars),
		WorkingDir: c.WorkingDir,
		Envs:       envs,
		Mounts:     containerMounts(c, volumes, vars),
		Stdin:      c.Stdin,
		StdinOnce:  c.StdinOnce,
		TTY:        c.TTY,
		Labels: map[string]string{
			labelPodName: pod.Name, labelPodNamespace: pod.Namespace, labelPodUID: pod.UID, labelContainerName: c.Name,
		},
		Annotations: map[string]string{"io.kubernetes.container.restartCount": strconv.FormatUint(uint64(attempt), 10)},
	}
	for _, p := range c.Ports {
		cfg.Ports = append(cfg.Ports, cri.PortMapping{Protocol: cri.Protocol(p.Protocol), ContainerPort: p.ContainerPort})
	}
	return cfg, nil
}
