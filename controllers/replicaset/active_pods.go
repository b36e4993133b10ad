package replicaset

import (
	"math"
	"strconv"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
)

// podDeletionCostAnnotation lets a user say which pods of a ReplicaSet to
// delete first on scale-down: lower costs go first. Its value is an int32;
// anything else counts as 0.
//
// Upstream: k8s.io/api/core/v1 (PodDeletionCost).
const podDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// isPodActive reports whether pod counts towards its ReplicaSet's
// replicas: not finished and not being deleted.
//
// Upstream: k8s.io/kubernetes/pkg/controller (IsPodActive).
func isPodActive(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed && pod.DeletionTimestamp == nil
}

// isPodTerminating reports whether pod is being deleted and still
// running: what status.terminatingReplicas counts.
//
// Upstream: k8s.io/kubernetes/pkg/controller (IsPodTerminating).
func isPodTerminating(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed && pod.DeletionTimestamp != nil
}

// filterActivePods returns the active pods of pods.
//
// Upstream: k8s.io/kubernetes/pkg/controller (FilterActivePods).
func filterActivePods(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, pod := range pods {
		if isPodActive(pod) {
			out = append(out, pod)
		}
	}
	return out
}

// filterTerminatingPods returns the terminating pods of pods.
//
// Upstream: k8s.io/kubernetes/pkg/controller (FilterTerminatingPods).
func filterTerminatingPods(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, pod := range pods {
		if isPodTerminating(pod) {
			out = append(out, pod)
		}
	}
	return out
}

// filterClaimedPods returns the pods of pods that rs controls and
// selects. Terminating pods are not claimed (nor released) by a sync, so
// they are counted as they stand.
//
// Upstream: k8s.io/kubernetes/pkg/controller (FilterClaimedPods).
func filterClaimedPods(rs *appsv1.ReplicaSet, selector labels.Selector, pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, pod := range pods {
		if ref := pod.ControllerRef(); ref != nil && ref.UID == rs.UID && selector.Matches(labels.Set(pod.Labels)) {
			out = append(out, pod)
		}
	}
	return out
}

// podReadyCondition returns pod's Ready condition, or nil.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (GetPodReadyCondition).
func podReadyCondition(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodReady {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// isPodReady reports whether pod's Ready condition is True.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (IsPodReady).
func isPodReady(pod *corev1.Pod) bool {
	c := podReadyCondition(pod)
	return c != nil && c.Status == corev1.ConditionTrue
}

// isPodAvailable reports whether pod has been ready for more than
// minReadySeconds at now (at once when minReadySeconds is 0).
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (IsPodAvailable).
func isPodAvailable(pod *corev1.Pod, minReadySeconds int32, now time.Time) bool {
	if !isPodReady(pod) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := podReadyCondition(pod)
	minReady := time.Duration(minReadySeconds) * time.Second
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(minReady).Before(now)
}

// podPhaseToOrdinal orders the phases of active pods for deletion: the
// earlier in a pod's life, the sooner it goes.
var podPhaseToOrdinal = map[corev1.PodPhase]int{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}

// activePodsWithRanks sorts pods so that the ones to delete first come
// first. Pod i comes before pod j by the first of these that differs:
//
//  1. unassigned (no node) before assigned;
//  2. Pending before Unknown before Running;
//  3. not ready before ready;
//  4. lower pod-deletion-cost annotation first;
//  5. higher Rank (more related pods on its node) first;
//  6. both ready: ready for less time first;
//  7. more container restarts first;
//  8. created more recently first.
//
// Times in 6 and 8 are compared on a logarithmic scale of their age at
// Now, and pods of the same rank by UID, so that among similar pods the
// choice is spread rather than always the very newest.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ActivePodsWithRanks), with
// the PodDeletionCost and LogarithmicScaleDown features on, as by default.
type activePodsWithRanks struct {
	Pods []*corev1.Pod
	// Rank is, for each pod, the number of active related pods on its
	// node. Swap keeps it aligned with Pods.
	Rank []int
	// Now is the reference for logarithmic comparisons; zero compares the
	// times themselves.
	Now time.Time
}

func (s activePodsWithRanks) Len() int { return len(s.Pods) }

func (s activePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// Less reports whether pod i should be deleted before pod j.
func (s activePodsWithRanks) Less(i, j int) bool {
	pi, pj := s.Pods[i], s.Pods[j]
	if pi.Spec.NodeName != pj.Spec.NodeName && (pi.Spec.NodeName == "" || pj.Spec.NodeName == "") {
		return pi.Spec.NodeName == ""
	}
	if oi, oj := podPhaseToOrdinal[pi.Status.Phase], podPhaseToOrdinal[pj.Status.Phase]; oi != oj {
		return oi < oj
	}
	if ri, rj := isPodReady(pi), isPodReady(pj); ri != rj {
		return !ri
	}
	if ci, cj := podDeletionCost(pi), podDeletionCost(pj); ci != cj {
		return ci < cj
	}
	if s.Rank[i] != s.Rank[j] {
		return s.Rank[i] > s.Rank[j]
	}
	if isPodReady(pi) && isPodReady(pj) {
		ti, tj := podReadyCondition(pi).LastTransitionTime.Time, podReadyCondition(pj).LastTransitionTime.Time
		if !ti.Equal(tj) {
			return s.newerFirst(pi, pj, ti, tj)
		}
	}
	if ri, rj := maxContainerRestarts(pi), maxContainerRestarts(pj); ri != rj {
		return ri > rj
	}
	if ti, tj := pi.CreationTimestamp.Time, pj.CreationTimestamp.Time; !ti.Equal(tj) {
		return s.newerFirst(pi, pj, ti, tj)
	}
	return false
}

// newerFirst reports whether ti (of pi) counts as more recent than tj (of
// pj): a zero time first, then by the logarithm of their ages at Now,
// then by UID when the logarithms agree.
func (s activePodsWithRanks) newerFirst(pi, pj *corev1.Pod, ti, tj time.Time) bool {
	if s.Now.IsZero() || ti.IsZero() || tj.IsZero() {
		return afterOrZero(ti, tj)
	}
	if d := logarithmicRankDiff(ti, tj, s.Now); d != 0 {
		return d < 0
	}
	return pi.UID < pj.UID
}

// afterOrZero reports whether t1 is zero, or later than t2 when neither is.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// logarithmicRankDiff compares the ages of t1 and t2 at now by their
// binary logarithms (in nanoseconds): negative when t1 is younger by at
// least a doubling. A time not in the past ranks lowest.
//
// Upstream: k8s.io/kubernetes/pkg/controller (logarithmicRankDiff).
func logarithmicRankDiff(t1, t2, now time.Time) int64 {
	r1, r2 := int64(-1), int64(-1)
	if d := now.Sub(t1); d > 0 {
		r1 = int64(math.Log2(float64(d)))
	}
	if d := now.Sub(t2); d > 0 {
		r2 = int64(math.Log2(float64(d)))
	}
	return r1 - r2
}

// maxContainerRestarts is the highest restart count of pod's containers.
func maxContainerRestarts(pod *corev1.Pod) int32 {
	var most int32
	for _, c := range pod.Status.ContainerStatuses {
		most = max(most, c.RestartCount)
	}
	return most
}

// podDeletionCost is pod's pod-deletion-cost annotation, or 0 when it is
// missing or not an int32.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/helper
// (GetDeletionCostFromPodAnnotations), whose error the sort ignores.
func podDeletionCost(pod *corev1.Pod) int32 {
	v, ok := pod.Annotations[podDeletionCostAnnotation]
	if !ok {
		return 0
	}
	cost, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(cost)
}
