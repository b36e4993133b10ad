package kubelet

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// startContainer runs one attempt of a container in the pod's sandbox:
// it makes sure the image is there, creates the container and starts
// it, recording Created and Started (or why not) as events and, for a
// container that could not be created, as its waiting reason.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/kuberuntime (startContainer).
func (k *Kubelet) startContainer(ctx context.Context, pod *corev1.Pod, c *corev1.Container, sb *cri.PodSandboxStatus, attempt uint32, st *podState, res *syncResult) {
	if !k.ensureImage(ctx, pod, c, st, res) {
		return
	}
	cfg, err := containerConfig(pod, c, sb, attempt)
	if err != nil {
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
// command, args (with $(VAR) expanded) and env (with valueFrom resolved),
// its ports, and the labels that tie it to the pod.
func containerConfig(pod *corev1.Pod, c *corev1.Container, sb *cri.PodSandboxStatus, attempt uint32) (cri.ContainerConfig, error) {
	envs, err := containerEnv(pod, c, sb.Network.IP)
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

// containerEnv resolves c's environment in order: values with $(VAR)
// references to the variables before them, and fieldRef and
// resourceFieldRef sources. minicp has no ConfigMaps or Secrets, so a
// reference to one fails unless it is optional, as a missing one does
// upstream.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet.makeEnvironmentVariables).
func containerEnv(pod *corev1.Pod, c *corev1.Container, podIP string) ([]cri.KeyValue, error) {
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil && !isTrue(from.ConfigMapRef.Optional):
			return nil, fmt.Errorf("configmap %q not found", from.ConfigMapRef.Name)
		case from.SecretRef != nil && !isTrue(from.SecretRef.Optional):
			return nil, fmt.Errorf("secret %q not found", from.SecretRef.Name)
		}
	}
	envs := make([]cri.KeyValue, 0, len(c.Env))
	vars := make(map[string]string, len(c.Env))
	for _, e := range c.Env {
		value := expand(e.Value, vars)
		if from := e.ValueFrom; from != nil {
			var err error
			switch {
			case from.FieldRef != nil:
				value, err = podField(pod, from.FieldRef.FieldPath, podIP)
			case from.ResourceFieldRef != nil:
				value, err = resourceField(c, from.ResourceFieldRef)
			case from.ConfigMapKeyRef != nil:
				if isTrue(from.ConfigMapKeyRef.Optional) {
					continue
				}
				err = fmt.Errorf("configmap %q not found", from.ConfigMapKeyRef.Name)
			case from.SecretKeyRef != nil:
				if isTrue(from.SecretKeyRef.Optional) {
					continue
				}
				err = fmt.Errorf("secret %q not found", from.SecretKeyRef.Name)
			}
			if err != nil {
				return nil, err
			}
		}
		vars[e.Name] = value
		envs = append(envs, cri.KeyValue{Key: e.Name, Value: value})
	}
	return envs, nil
}

func isTrue(b *bool) bool { return b != nil && *b }

// podField is the value of a downward API fieldRef.
func podField(pod *corev1.Pod, path, podIP string) (string, error) {
	switch path {
	case "metadata.name":
		return pod.Name, nil
	case "metadata.namespace":
		return pod.Namespace, nil
	case "metadata.uid":
		return pod.UID, nil
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return NodeIP, nil
	case "status.podIP", "status.podIPs":
		return podIP, nil
	}
	for prefix, m := range map[string]map[string]string{"metadata.labels": pod.Labels, "metadata.annotations": pod.Annotations} {
		if key, ok := strings.CutPrefix(path, prefix+"['"); ok && strings.HasSuffix(key, "']") {
			return m[strings.TrimSuffix(key, "']")], nil
		}
	}
	return "", fmt.Errorf("unsupported fieldPath: %s", path)
}

// resourceField is the value of a downward API resourceFieldRef: the
// container's limit or request, in units of the divisor (default 1).
func resourceField(c *corev1.Container, ref *corev1.ResourceFieldSelector) (string, error) {
	kind, name, ok := strings.Cut(ref.Resource, ".")
	if !ok || (kind != "limits" && kind != "requests") {
		return "", fmt.Errorf("unsupported container resource: %s", ref.Resource)
	}
	list := c.Resources.Limits
	if kind == "requests" {
		list = c.Resources.Requests
	}
	q, ok := list[corev1.ResourceName(name)]
	if !ok {
		return "0", nil
	}
	divisor := ref.Divisor.MilliValue()
	if divisor == 0 {
		divisor = 1000
	}
	// Round up, as upstream's ExtractContainerResourceValue does.
	return strconv.FormatInt((q.MilliValue()+divisor-1)/divisor, 10), nil
}

func expandAll(in []string, vars map[string]string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = expand(s, vars)
	}
	return out
}

// expand replaces $(VAR) with the variable's value, leaves references to
// unknown variables as they are and turns $$ into $.
//
// Upstream: k8s.io/kubernetes/third_party/forked/golang/expansion (Expand).
func expand(s string, vars map[string]string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(s[i : i+3+end])
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}
