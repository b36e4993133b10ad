package job

import (
	"fmt"
	"slices"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// matchPodFailurePolicy applies policy to a failed pod: the first rule
// that matches decides. It returns the message that fails the Job (for
// FailJob), whether the failure counts towards backoffLimit (not for
// Ignore), and the action that matched (nil when none did, which counts
// the failure).
//
// FailIndex needs backoffLimitPerIndex, which minicp does not implement:
// such a rule matches and does nothing, as upstream with that feature off.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (matchPodFailurePolicy).
func matchPodFailurePolicy(policy *batchv1.PodFailurePolicy, pod *corev1.Pod) (*string, bool, *batchv1.PodFailurePolicyAction) {
	if policy == nil {
		return nil, true, nil
	}
	for i, rule := range policy.Rules {
		var failJobMsg string
		switch {
		case rule.OnExitCodes != nil:
			cs := matchOnExitCodes(&pod.Status, rule.OnExitCodes)
			if cs == nil {
				continue
			}
			failJobMsg = fmt.Sprintf("Container %s for pod %s/%s failed with exit code %d matching %s rule at index %d",
				cs.Name, pod.Namespace, pod.Name, cs.State.Terminated.ExitCode, rule.Action, i)
		case len(rule.OnPodConditions) > 0:
			cond := matchOnPodConditions(&pod.Status, rule.OnPodConditions)
			if cond == nil {
				continue
			}
			failJobMsg = fmt.Sprintf("Pod %s/%s has condition %s matching %s rule at index %d",
				pod.Namespace, pod.Name, cond.Type, rule.Action, i)
		default:
			continue
		}
		action := rule.Action
		switch action {
		case batchv1.PodFailurePolicyActionIgnore:
			return nil, false, &action
		case batchv1.PodFailurePolicyActionCount:
			return nil, true, &action
		case batchv1.PodFailurePolicyActionFailJob:
			return &failJobMsg, true, &action
		}
	}
	return nil, true, nil
}

// matchOnExitCodes returns the first terminated container (regular, then
// init) whose non-zero exit code the requirement matches.
func matchOnExitCodes(status *corev1.PodStatus, req *batchv1.PodFailurePolicyOnExitCodesRequirement) *corev1.ContainerStatus {
	if cs := matchingContainer(status.ContainerStatuses, req); cs != nil {
		return cs
	}
	return matchingContainer(status.InitContainerStatuses, req)
}

func matchingContainer(statuses []corev1.ContainerStatus, req *batchv1.PodFailurePolicyOnExitCodesRequirement) *corev1.ContainerStatus {
	for i := range statuses {
		cs := &statuses[i]
		term := cs.State.Terminated
		// A container still terminating has no exit code yet; exit 0 is
		// never a failure to match.
		if term == nil || term.ExitCode == 0 {
			continue
		}
		if req.ContainerName != nil && *req.ContainerName != cs.Name {
			continue
		}
		in := slices.Contains(req.Values, term.ExitCode)
		if req.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && in ||
			req.Operator == batchv1.PodFailurePolicyOnExitCodesOpNotIn && !in {
			return cs
		}
	}
	return nil
}

// matchOnPodConditions returns the first condition of status that one of
// patterns matches by type and status.
func matchOnPodConditions(status *corev1.PodStatus, patterns []batchv1.PodFailurePolicyOnPodConditionsPattern) *corev1.PodCondition {
	for _, pattern := range patterns {
		for i := range status.Conditions {
			if c := &status.Conditions[i]; c.Type == pattern.Type && c.Status == pattern.Status {
				return c
			}
		}
	}
	return nil
}

// getFailJobMessage returns the message of the first FailJob rule a failed
// pod of the Job matches, or nil.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (getFailJobMessage).
func getFailJobMessage(job *batchv1.Job, pods []*corev1.Pod) *string {
	if job.Spec.PodFailurePolicy == nil {
		return nil
	}
	for _, p := range pods {
		if isPodFailed(p, job) {
			if msg, _, _ := matchPodFailurePolicy(job.Spec.PodFailurePolicy, p); msg != nil {
				return msg
			}
		}
	}
	return nil
}

// isPodFailed reports whether p counts as a failure of job: it failed, or
// (unless only failed pods are replaced) it is being deleted before it
// succeeded, which covers pods that will never reach a phase, such as an
// orphan deleted by the pod garbage collector.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (isPodFailed).
func isPodFailed(p *corev1.Pod, job *batchv1.Job) bool {
	if p.Status.Phase == corev1.PodFailed {
		return true
	}
	if onlyReplaceFailedPods(job) {
		return false
	}
	return p.DeletionTimestamp != nil && p.Status.Phase != corev1.PodSucceeded
}

// onlyReplaceFailedPods reports whether job waits for a terminating pod to
// fail before it replaces it: podReplacementPolicy Failed, which a pod
// failure policy implies (it needs the pod's final state).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (onlyReplaceFailedPods).
func onlyReplaceFailedPods(job *batchv1.Job) bool {
	if p := job.Spec.PodReplacementPolicy; p != nil && *p == batchv1.Failed {
		return true
	}
	return job.Spec.PodFailurePolicy != nil
}
