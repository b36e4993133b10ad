package job

import (
	"encoding/json"
	"maps"
	"slices"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/controllers/controllerref"
)

// isPodActive reports whether p still runs or will: not finished and not
// being deleted.
//
// Upstream: k8s.io/kubernetes/pkg/controller (IsPodActive).
func isPodActive(p *corev1.Pod) bool {
	return p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed && p.DeletionTimestamp == nil
}

// isPodTerminating reports whether p is being deleted and has not
// finished yet: its containers may still run.
//
// Upstream: k8s.io/kubernetes/pkg/controller (isPodTerminating).
func isPodTerminating(p *corev1.Pod) bool {
	return p.DeletionTimestamp != nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed
}

// filterActivePods returns the active pods of pods.
func filterActivePods(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		if isPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// countTerminatingPods counts the terminating pods of pods.
func countTerminatingPods(pods []*corev1.Pod) int32 {
	var n int32
	for _, p := range pods {
		if isPodTerminating(p) {
			n++
		}
	}
	return n
}

// isPodReady reports whether p's Ready condition is True.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (IsPodReady).
func isPodReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// countReadyPods counts the ready pods of pods.
func countReadyPods(pods []*corev1.Pod) int32 {
	var n int32
	for _, p := range pods {
		if isPodReady(p) {
			n++
		}
	}
	return n
}

// podPhaseOrdinal orders active pods by how far they got: a pending pod is
// cheaper to delete than a running one.
var podPhaseOrdinal = map[corev1.PodPhase]int{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}

// sortActivePodsForDeletion sorts pods so that those to delete first come
// first: unscheduled before scheduled, pending before running, not ready
// before ready, more restarts before fewer, newer before older. It sorts
// a copy and returns it.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ActivePods.Less).
func sortActivePodsForDeletion(pods []*corev1.Pod) []*corev1.Pod {
	out := slices.Clone(pods)
	slices.SortStableFunc(out, func(a, b *corev1.Pod) int {
		if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
			return boolFirst(a.Spec.NodeName == "")
		}
		if pa, pb := podPhaseOrdinal[a.Status.Phase], podPhaseOrdinal[b.Status.Phase]; pa != pb {
			return pa - pb
		}
		if ra, rb := isPodReady(a), isPodReady(b); ra != rb {
			return boolFirst(!ra)
		}
		if ra, rb := maxContainerRestarts(a), maxContainerRestarts(b); ra != rb {
			return boolFirst(ra > rb)
		}
		ta, tb := a.CreationTimestamp.Time, b.CreationTimestamp.Time
		switch {
		case ta.Equal(tb):
			return 0
		case ta.IsZero():
			return -1
		case tb.IsZero():
			return 1
		}
		return boolFirst(ta.After(tb))
	})
	return out
}

// boolFirst is a comparison result that puts the first element first when
// first is true, else second.
func boolFirst(first bool) int {
	if first {
		return -1
	}
	return 1
}

// maxContainerRestarts is the highest restart count of p's containers.
func maxContainerRestarts(p *corev1.Pod) int32 {
	var n int32
	for _, c := range p.Status.ContainerStatuses {
		n = max(n, c.RestartCount)
	}
	return n
}

// hasJobTrackingFinalizer reports whether p carries the finalizer that
// keeps it until the job controller has counted it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (hasJobTrackingFinalizer).
func hasJobTrackingFinalizer(p *corev1.Pod) bool {
	return slices.Contains(p.Finalizers, batchv1.JobTrackingFinalizer)
}

// removeTrackingFinalizerPatch is the strategic merge patch that removes
// the tracking finalizer from p and leaves its other finalizers alone, or
// nil when p has none.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (removeTrackingFinalizerPatch).
func removeTrackingFinalizerPatch(p *corev1.Pod) []byte {
	if !hasJobTrackingFinalizer(p) {
		return nil
	}
	patch, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{
			"$deleteFromPrimitiveList/finalizers": []string{batchv1.JobTrackingFinalizer},
		},
	})
	return patch
}

// podFromTemplate returns the pod the Job runs: the template's metadata
// and spec, named after the Job (the API server appends a random suffix),
// controlled by the Job and carrying the tracking finalizer.
//
// Upstream: k8s.io/kubernetes/pkg/controller (GetPodFromTemplate).
func podFromTemplate(template *corev1.PodTemplateSpec, job *batchv1.Job, generateName string) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       job.Namespace,
			GenerateName:    generateName,
			Labels:          maps.Clone(template.Labels),
			Annotations:     maps.Clone(template.Annotations),
			Finalizers:      slices.Clone(template.Finalizers),
			OwnerReferences: []metav1.OwnerReference{controllerref.NewControllerRef(&job.ObjectMeta, controllerKind)},
		},
		Spec: runtime.DeepCopy(template.Spec),
	}
	if !slices.Contains(pod.Finalizers, batchv1.JobTrackingFinalizer) {
		pod.Finalizers = append(pod.Finalizers, batchv1.JobTrackingFinalizer)
	}
	return pod
}

// podGenerateName is "<job>-", or the Job's name alone when that is not a
// valid name prefix, as upstream's getPodsPrefix.
func podGenerateName(jobName string) string {
	prefix := jobName + "-"
	if len(validation.NameIsDNSSubdomain(prefix, true)) > 0 {
		return jobName
	}
	return prefix
}
