package kubelet

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/tracing"
)

// retryPeriod is how long a sync that failed on the API or the runtime
// waits before it tries again. Upstream's pod workers wait 10s
// (backOffPeriod) after a failed sync.
const retryPeriod = 10 * time.Second

// podState is what the kubelet remembers of a pod between syncs, beyond
// what it reads back from the runtime and the API at every sync. It
// belongs to the pod's worker (see podWorker.state).
type podState struct {
	// backoff paces container restarts (key "container/<name>"), image
	// pulls ("image/<image>") and sandbox creation ("sandbox").
	backoff backOff
	// waiting says why a container that should run does not
	// (CrashLoopBackOff, ErrImagePull, ...), by container name; cleared
	// when the container starts.
	waiting map[string]corev1.ContainerStateWaiting
	// pullErrs is the last pull error of each image, for the
	// ImagePullBackOff message.
	pullErrs map[string]string
	// backoffReported is the attempt of each container whose backoff was
	// last reported with a BackOff event: one event per crash, not one
	// per sync.
	backoffReported map[string]uint32
	// probes are the probe states of running containers, by container ID.
	probes map[string]*containerProbes
	// deadlineExceeded: activeDeadlineSeconds passed; the pod fails.
	deadlineExceeded bool
	// deleteSent: the final DELETE of a terminated pod went through; the
	// worker waits for the API's delete.
	deleteSent bool
	// volumes are the files of the pod's volumes as this sync read them
	// (setUpVolumes), by volume name; nil until a sync needs them, and
	// cleared at the start of each, so that every container start mounts
	// what the API holds then.
	volumes map[string]volumeFiles
}

func (st *podState) setWaiting(name, reason, message string) {
	if st.waiting == nil {
		st.waiting = map[string]corev1.ContainerStateWaiting{}
	}
	st.waiting[name] = corev1.ContainerStateWaiting{Reason: reason, Message: message}
}

// syncPodWorker is the pod workers' syncFunc: it dispatches on where the
// pod is in its life.
//
//	bound --syncPod--> running ... --phase Succeeded/Failed--> terminal (sandbox stopped)
//	   \                 |
//	    +--deletionTimestamp set--> terminatePod: stop, final status, DELETE --> cleanupPod: remove
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (SyncPod, SyncTerminatingPod,
// SyncTerminatedPod).
func (k *Kubelet) syncPodWorker(ctx context.Context, w *podWorker, pod *corev1.Pod, deleted bool) syncResult {
	ctx, span := k.startSyncSpan(ctx, pod, deleted)
	defer span.End()
	switch {
	case deleted:
		return k.cleanupPod(ctx, w, pod)
	case pod.DeletionTimestamp != nil:
		return k.terminatePod(ctx, w, pod)
	default:
		return k.syncPod(ctx, w, pod)
	}
}

// syncPod converges a pod that is not being deleted: sandbox and IP, init
// containers one after the other, then every container, restarted as its
// restartPolicy says with CrashLoopBackOff; probes; then the status.
func (k *Kubelet) syncPod(ctx context.Context, w *podWorker, pod *corev1.Pod) syncResult {
	var res syncResult
	st := &w.state
	st.volumes = nil
	now := k.clock.Now()
	base := k.workers.newest(w)
	rt, err := k.readPodRuntime(ctx, pod.UID)
	if err != nil {
		return k.retry(ctx, pod, "reading the runtime failed", err)
	}
	if isTerminal(base.Status.Phase) {
		// A finished pod keeps its containers, for their logs, but gives
		// its IP back.
		k.stopSandboxes(ctx, rt)
		return res
	}
	startTime := now
	if base.Status.StartTime != nil {
		startTime = base.Status.StartTime.Time
	}
	if d := pod.Spec.ActiveDeadlineSeconds; d != nil && !st.deadlineExceeded {
		deadline := startTime.Add(time.Duration(*d) * time.Second)
		if now.Before(deadline) {
			res.wakeAtOrEarlier(deadline)
		} else {
			st.deadlineExceeded = true
			k.event(pod, corev1.EventTypeNormal, "DeadlineExceeded", "Pod was active on the node longer than the specified deadline")
		}
	}
	switch {
	case st.deadlineExceeded:
		clear(st.waiting)
		k.killContainers(ctx, w, pod, rt, podGracePeriod(pod))
	case rt.sandboxReady() == nil && !k.setUpVolumes(ctx, pod, st, &res):
		// As upstream, a pod whose volumes cannot be set up gets no
		// sandbox: it stays Pending, its containers ContainerCreating.
	default:
		if sb := k.ensureSandbox(ctx, pod, rt, st, &res); sb != nil {
			k.runProbes(ctx, pod, rt, sb, st, &res)
			if k.syncInitContainers(ctx, pod, rt, sb, st, &res) {
				k.syncContainers(ctx, pod, rt, sb, st, &res)
			}
		}
	}
	if ctx.Err() != nil {
		return res
	}
	// Read again: the status reports what this sync did.
	if rt, err = k.readPodRuntime(ctx, pod.UID); err != nil {
		retry := k.retry(ctx, pod, "reading the runtime failed", err)
		retry.wakeAtOrEarlier(res.wakeAt)
		return retry
	}
	k.removeStale(ctx, rt)
	status, err := k.writeStatus(ctx, w, pod, func(base *corev1.Pod) corev1.PodStatus {
		return k.generatePodStatus(pod, base, rt, st, startTime, false)
	})
	if err != nil {
		// Keep this sync's own wake-ups: a backoff that ends before the
		// retry must not wait for it.
		retry := k.retry(ctx, pod, "writing pod status failed", err)
		retry.wakeAtOrEarlier(res.wakeAt)
		return retry
	}
	if isTerminal(status.Phase) {
		k.stopSandboxes(ctx, rt)
		clear(st.probes)
	}
	return res
}

// retry logs a failed sync and asks for another one after retryPeriod.
func (k *Kubelet) retry(ctx context.Context, pod *corev1.Pod, msg string, err error) syncResult {
	if ctx.Err() != nil {
		return syncResult{}
	}
	k.log.Warn(msg, "namespace", pod.Namespace, "pod", pod.Name, "err", err)
	return syncResult{wakeAt: k.clock.Now().Add(retryPeriod)}
}

// ensureSandbox returns the pod's ready sandbox, creating one (the pause
// container, and an IP from CNI) if it has none.
func (k *Kubelet) ensureSandbox(ctx context.Context, pod *corev1.Pod, rt *podRuntime, st *podState, res *syncResult) *cri.PodSandboxStatus {
	if sb := rt.sandboxReady(); sb != nil {
		return sb
	}
	const key = "sandbox"
	if until, in := st.backoff.inBackOffSinceUpdate(key, k.clock.Now()); in {
		res.wakeAtOrEarlier(until)
		return nil
	}
	id, err := k.runtime.RunPodSandbox(ctx, cri.PodSandboxConfig{
		Metadata: cri.PodSandboxMetadata{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID, Attempt: uint32(len(rt.sandboxes))},
		Hostname: podHostname(pod),
		Labels:   map[string]string{labelPodName: pod.Name, labelPodNamespace: pod.Namespace, labelPodUID: pod.UID},
	})
	var sb cri.PodSandboxStatus
	if err == nil {
		sb, err = k.runtime.PodSandboxStatus(ctx, id)
	}
	if err != nil {
		if ctx.Err() == nil {
			k.event(pod, corev1.EventTypeWarning, "FailedCreatePodSandBox", "Failed to create pod sandbox: %v", err)
			now := k.clock.Now()
			st.backoff.next(key, now, now)
			res.wakeAtOrEarlier(now.Add(st.backoff.delay(key)))
		}
		return nil
	}
	k.log.Debug("sandbox ready", "hop", "kubelet.sandbox", "namespace", pod.Namespace, "pod", pod.Name, "ip", sb.Network.IP)
	tracing.Mark(ctx, k.component(), tracing.HopRuntimeSandbox, attribute.String("ip", sb.Network.IP))
	return &sb
}

// podHostname is the hostname the pod's containers see.
func podHostname(pod *corev1.Pod) string {
	if pod.Spec.Hostname != "" {
		return pod.Spec.Hostname
	}
	return pod.Name
}

// syncInitContainers runs the init containers in order, each after the
// one before it exited 0, restarting a failed one unless the pod's
// restartPolicy is Never (the pod then fails). It reports whether all of
// them completed.
func (k *Kubelet) syncInitContainers(ctx context.Context, pod *corev1.Pod, rt *podRuntime, sb *cri.PodSandboxStatus, st *podState, res *syncResult) bool {
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		cs := rt.latest(c.Name)
		switch {
		case cs == nil:
			k.startContainer(ctx, pod, c, sb, 0, st, res)
			return false
		case cs.State == cri.ContainerExited && cs.ExitCode == 0:
			continue
		case cs.State == cri.ContainerExited:
			if pod.Spec.RestartPolicy != corev1.RestartPolicyNever {
				k.restartContainer(ctx, pod, c, sb, cs, st, res)
			}
			return false
		default:
			return false // running: wait for it to exit
		}
	}
	return true
}

// syncContainers starts the containers that have not run, restarts the
// ones that exited as the restartPolicy says, and kills the ones whose
// liveness probe failed (the next sync restarts them).
func (k *Kubelet) syncContainers(ctx context.Context, pod *corev1.Pod, rt *podRuntime, sb *cri.PodSandboxStatus, st *podState, res *syncResult) {
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		cs := rt.latest(c.Name)
		switch {
		case cs == nil:
			k.startContainer(ctx, pod, c, sb, 0, st, res)
		case cs.State == cri.ContainerRunning && st.livenessFailed(cs.ID):
			k.event(pod, corev1.EventTypeNormal, "Killing", "Container %s failed liveness probe, will be restarted", c.Name)
			grace := podGracePeriod(pod)
			if p := c.LivenessProbe; p != nil && p.TerminationGracePeriodSeconds != nil {
				grace = time.Duration(*p.TerminationGracePeriodSeconds) * time.Second
			}
			delete(st.probes, cs.ID)
			if err := k.runtime.StopContainer(ctx, cs.ID, grace); err != nil && ctx.Err() == nil {
				k.log.Warn("killing a container failed", "namespace", pod.Namespace, "pod", pod.Name, "container", c.Name, "err", err)
			}
		case cs.State == cri.ContainerExited && shouldRestart(pod.Spec.RestartPolicy, cs.ExitCode):
			k.restartContainer(ctx, pod, c, sb, cs, st, res)
		}
	}
}

func shouldRestart(policy corev1.RestartPolicy, exitCode int32) bool {
	switch policy {
	case corev1.RestartPolicyNever:
		return false
	case corev1.RestartPolicyOnFailure:
		return exitCode != 0
	}
	return true
}

// restartContainer starts the next run of an exited container, unless
// it is backing off: the first restart is at once, the next ones wait
// containerBackoff.Initial after the exit, doubling up to its Cap
// (CrashLoopBackOff).
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/kuberuntime (doBackOff).
func (k *Kubelet) restartContainer(ctx context.Context, pod *corev1.Pod, c *corev1.Container, sb *cri.PodSandboxStatus, cs *cri.ContainerStatus, st *podState, res *syncResult) {
	key := "container/" + c.Name
	now := k.clock.Now()
	if until, in := st.backoff.inBackOffSince(key, cs.FinishedAt, now); in {
		st.setWaiting(c.Name, "CrashLoopBackOff", fmt.Sprintf("back-off %s restarting failed container=%s pod=%s",
			st.backoff.delay(key), c.Name, podDesc(pod)))
		if st.backoffReported == nil {
			st.backoffReported = map[string]uint32{}
		}
		if at, ok := st.backoffReported[c.Name]; !ok || at != cs.Metadata.Attempt {
			st.backoffReported[c.Name] = cs.Metadata.Attempt
			k.event(pod, corev1.EventTypeWarning, "BackOff", "Back-off restarting failed container %s in pod %s", c.Name, podDesc(pod))
		}
		res.wakeAtOrEarlier(until)
		return
	}
	st.backoff.next(key, cs.FinishedAt, now)
	k.startContainer(ctx, pod, c, sb, cs.Metadata.Attempt+1, st, res)
}

// podDesc names a pod as the kubelet's messages do: name_namespace(uid).
func podDesc(pod *corev1.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

func isTerminal(phase corev1.PodPhase) bool {
	return phase == corev1.PodSucceeded || phase == corev1.PodFailed
}

// podGracePeriod is how long a pod's containers get between SIGTERM and
// SIGKILL: the deletion's grace period, else the spec's, else 30s.
func podGracePeriod(pod *corev1.Pod) time.Duration {
	switch {
	case pod.DeletionGracePeriodSeconds != nil:
		return time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		return time.Duration(*pod.Spec.TerminationGracePeriodSeconds) * time.Second
	}
	return time.Duration(corev1.DefaultTerminationGracePeriodSeconds) * time.Second
}

// startSyncSpan starts the span of one sync of pod: a trace of its own,
// linked to the traced write of the pod's version being synced; a no-op
// span when that write was not traced.
func (k *Kubelet) startSyncSpan(ctx context.Context, pod *corev1.Pod, deleted bool) (context.Context, trace.Span) {
	rev, _ := strconv.ParseInt(pod.ResourceVersion, 10, 64)
	link, ok := k.revisions.Link(rev)
	if !ok {
		return ctx, trace.SpanFromContext(context.Background()) // a no-op span
	}
	return k.tracer.Start(ctx, tracing.HopKubeletSync, trace.WithNewRoot(), trace.WithLinks(link),
		trace.WithAttributes(tracing.KeyNamespace.String(pod.Namespace), tracing.KeyName.String(pod.Name),
			attribute.Bool("deleted", deleted), attribute.Bool("terminating", pod.DeletionTimestamp != nil)))
}

// component is the kubelet's name in traces.
func (k *Kubelet) component() string { return "kubelet/" + k.nodeName }
