package kubelet

import (
	"fmt"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// generatePodStatus computes a pod's status from its runtime. base is the
// newest copy of the pod: its status is the starting point, so what others
// own (the scheduler's PodScheduled, the API server's qosClass, custom
// conditions) is kept. terminating says the pod is being deleted: its
// containers will not restart, so its phase is final.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet.generateAPIPodStatus).
func (k *Kubelet) generatePodStatus(pod, base *corev1.Pod, rt *podRuntime, st *podState, startTime time.Time, terminating bool) corev1.PodStatus {
	old := base.Status
	s := base.DeepCopy().Status
	s.HostIP, s.HostIPs = NodeIP, []corev1.HostIP{{IP: NodeIP}}
	if sb := rt.sandboxReady(); sb != nil && sb.Network.IP != "" {
		// A stopped sandbox has no IP any more; the status keeps the
		// last one, as upstream's does for a finished pod.
		s.PodIP, s.PodIPs = sb.Network.IP, []corev1.PodIP{{IP: sb.Network.IP}}
	}
	start := metav1.NewTime(startTime)
	s.StartTime = &start
	s.InitContainerStatuses = k.containerStatuses(pod.Spec.InitContainers, rt, st, "PodInitializing", terminating)
	mainWaiting := "ContainerCreating"
	if !initialized(pod, s.InitContainerStatuses) {
		mainWaiting = "PodInitializing"
	}
	s.ContainerStatuses = k.containerStatuses(pod.Spec.Containers, rt, st, mainWaiting, terminating)
	s.Phase = getPhase(pod, s.InitContainerStatuses, s.ContainerStatuses, terminating)
	if st.deadlineExceeded {
		s.Phase, s.Reason, s.Message = corev1.PodFailed, "DeadlineExceeded", "Pod was active on the node longer than the specified deadline"
	}
	if isTerminal(old.Phase) {
		s.Phase = old.Phase // a finished pod never runs again
	}
	s.Conditions = podConditions(pod, &s, rt, k.clock.Now(), old.Conditions)
	return s
}

// containerStatuses reports each container of the spec: its newest run's
// state (or why it waits), the run before as lastState, and its restarts.
func (k *Kubelet) containerStatuses(specs []corev1.Container, rt *podRuntime, st *podState, waitingReason string, terminating bool) []corev1.ContainerStatus {
	if len(specs) == 0 {
		return nil
	}
	out := make([]corev1.ContainerStatus, 0, len(specs))
	for i := range specs {
		c := &specs[i]
		cs := corev1.ContainerStatus{Name: c.Name, Image: c.Image}
		waiting, hasWaiting := st.waiting[c.Name]
		hasWaiting = hasWaiting && !terminating
		latest := rt.latest(c.Name)
		if latest == nil {
			if !hasWaiting {
				waiting = corev1.ContainerStateWaiting{Reason: waitingReason}
			}
			cs.State.Waiting = &waiting
			out = append(out, cs)
			continue
		}
		cs.RestartCount = int32(latest.Metadata.Attempt)
		cs.ImageID = latest.ImageRef
		cs.ContainerID = containerID(latest.ID)
		started := latest.State == cri.ContainerRunning
		cs.Started = &started
		switch latest.State {
		case cri.ContainerRunning:
			cs.State.Running = &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(latest.StartedAt)}
			cs.Ready = st.ready(latest.ID, c)
		case cri.ContainerExited:
			if hasWaiting {
				// Waiting for its restart: the run that ended is lastState.
				cs.State.Waiting = &waiting
				cs.LastTerminationState.Terminated = terminated(latest)
			} else {
				cs.State.Terminated = terminated(latest)
			}
		default:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
		}
		if prev := rt.previous(c.Name); cs.LastTerminationState.Terminated == nil && prev != nil && prev.State == cri.ContainerExited {
			cs.LastTerminationState.Terminated = terminated(prev)
		}
		out = append(out, cs)
	}
	return out
}

func containerID(id string) string { return runtimeName + "://" + id }

func terminated(cs *cri.ContainerStatus) *corev1.ContainerStateTerminated {
	return &corev1.ContainerStateTerminated{
		ExitCode: cs.ExitCode, Reason: cs.Reason, Message: cs.Message,
		StartedAt: metav1.NewTime(cs.StartedAt), FinishedAt: metav1.NewTime(cs.FinishedAt),
		ContainerID: containerID(cs.ID),
	}
}

// initialized reports whether every init container exited 0.
func initialized(pod *corev1.Pod, statuses []corev1.ContainerStatus) bool {
	return len(incompleteInit(pod, statuses)) == 0
}

func incompleteInit(pod *corev1.Pod, statuses []corev1.ContainerStatus) []string {
	var names []string
	for i, c := range pod.Spec.InitContainers {
		if i >= len(statuses) || statuses[i].State.Terminated == nil || statuses[i].State.Terminated.ExitCode != 0 {
			names = append(names, c.Name)
		}
	}
	return names
}

// getPhase sums up the containers' states as the pod's phase.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (getPhase), without restartable
// init containers (sidecars), which minicp runs as plain init containers.
func getPhase(pod *corev1.Pod, initStatuses, statuses []corev1.ContainerStatus, terminating bool) corev1.PodPhase {
	pendingInit, failedInit := 0, 0
	for _, cs := range initStatuses {
		switch {
		case cs.State.Running != nil:
			pendingInit++
		case cs.State.Terminated != nil:
			if cs.State.Terminated.ExitCode != 0 {
				failedInit++
			}
		case cs.State.Waiting != nil && cs.LastTerminationState.Terminated != nil:
			if cs.LastTerminationState.Terminated.ExitCode != 0 {
				failedInit++
			}
		default:
			pendingInit++
		}
	}
	var running, waiting, stopped, succeeded int
	for _, cs := range statuses {
		switch {
		case cs.State.Running != nil:
			running++
		case cs.State.Terminated != nil:
			stopped++
			if cs.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case cs.LastTerminationState.Terminated != nil:
			stopped++
		default:
			waiting++
		}
	}
	phase := corev1.PodPending
	switch {
	case failedInit > 0 && pod.Spec.RestartPolicy == corev1.RestartPolicyNever:
		phase = corev1.PodFailed
	case pendingInit > 0 || waiting > 0:
		phase = corev1.PodPending
	case running > 0:
		phase = corev1.PodRunning
	case stopped > 0 && terminating:
		phase = corev1.PodFailed
		if stopped == succeeded {
			phase = corev1.PodSucceeded
		}
	case stopped > 0 && pod.Spec.RestartPolicy == corev1.RestartPolicyAlways:
		phase = corev1.PodRunning // every container is restarting
	case stopped > 0 && stopped == succeeded:
		phase = corev1.PodSucceeded
	case stopped > 0 && pod.Spec.RestartPolicy == corev1.RestartPolicyNever:
		phase = corev1.PodFailed
	case stopped > 0:
		phase = corev1.PodRunning // OnFailure: restarting the failed ones
	}
	if terminating && !isTerminal(phase) {
		// A deleted pod's containers never run again: it ends here.
		phase = corev1.PodFailed
	}
	return phase
}

// podConditions returns the pod's conditions: the kubelet's own, in the
// order kubectl describe shows them, then the others of old as they are.
// A condition keeps its lastTransitionTime while its status stays.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/status (GeneratePodReadyCondition
// and its siblings).
func podConditions(pod *corev1.Pod, s *corev1.PodStatus, rt *podRuntime, now time.Time, old []corev1.PodCondition) []corev1.PodCondition {
	cond := func(t corev1.PodConditionType, ok bool, reason, msg string) corev1.PodCondition {
		status := corev1.ConditionFalse
		if ok {
			status = corev1.ConditionTrue
			reason, msg = "", ""
		}
		c := corev1.PodCondition{Type: t, Status: status, Reason: reason, Message: msg, LastTransitionTime: metav1.NewTime(now)}
		for _, o := range old {
			if o.Type == t && o.Status == status {
				c.LastTransitionTime = o.LastTransitionTime
			}
		}
		return c
	}
	terminal := isTerminal(s.Phase)
	sandboxOK := rt.sandboxReady() != nil && !terminal
	incomplete := incompleteInit(pod, s.InitContainerStatuses)
	var unready []string
	for _, cs := range s.ContainerStatuses {
		if !cs.Ready {
			unready = append(unready, cs.Name)
		}
	}
	containersReady := cond(corev1.ContainersReady, len(unready) == 0 && !terminal,
		"ContainersNotReady", fmt.Sprintf("containers with unready status: %v", unready))
	ready := cond(corev1.PodReady, len(unready) == 0 && !terminal,
		"ContainersNotReady", fmt.Sprintf("containers with unready status: %v", unready))
	if terminal {
		containersReady.Reason, containersReady.Message = "PodCompleted", ""
		ready.Reason, ready.Message = "PodCompleted", ""
	} else if ready.Status == corev1.ConditionTrue {
		if msg := readinessGatesUnmet(pod, old); msg != "" {
			ready = cond(corev1.PodReady, false, "ReadinessGatesNotReady", msg)
		}
	}
	out := []corev1.PodCondition{
		cond(corev1.PodReadyToStartContainers, sandboxOK, "", ""),
		cond(corev1.PodInitialized, len(incomplete) == 0,
			"ContainersNotInitialized", fmt.Sprintf("containers with incomplete status: %v", incomplete)),
		ready,
		containersReady,
	}
	scheduled := false
	for _, o := range old {
		switch o.Type {
		case corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady:
		default:
			scheduled = scheduled || o.Type == corev1.PodScheduled
			out = append(out, o)
		}
	}
	if !scheduled {
		out = append(out, cond(corev1.PodScheduled, true, "", ""))
	}
	return out
}

// readinessGatesUnmet says why the pod's readiness gates keep it not
// ready, or "" when they do not.
func readinessGatesUnmet(pod *corev1.Pod, conditions []corev1.PodCondition) string {
	for _, g := range pod.Spec.ReadinessGates {
		found := false
		for _, c := range conditions {
			if c.Type != g.ConditionType {
				continue
			}
			found = true
			if c.Status != corev1.ConditionTrue {
				return fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %s", g.ConditionType, c.Status)
			}
		}
		if !found {
			return fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", g.ConditionType)
		}
	}
	return ""
}
