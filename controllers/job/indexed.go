package job

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// completionIndexEnvName is the variable through which a container learns
// its index, from the downward API.
const completionIndexEnvName = "JOB_COMPLETION_INDEX"

// unknownCompletionIndex is the index of a pod without a valid one.
const unknownCompletionIndex = -1

func isIndexedJob(job *batchv1.Job) bool {
	return job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion
}

// interval is the indexes First to Last, both included.
type interval struct{ First, Last int }

// orderedIntervals is a set of indexes as sorted, disjoint, non-adjacent
// intervals: the form of status.completedIndexes, "1,3-5,7".
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (orderedIntervals).
type orderedIntervals []interval

// withOrderedIndexes returns oi with the sorted indexes added.
func (oi orderedIntervals) withOrderedIndexes(indexes []int) orderedIntervals {
	add := make(orderedIntervals, len(indexes))
	for i, ix := range indexes {
		add[i] = interval{ix, ix}
	}
	return oi.merge(add)
}

// merge returns the union of oi and other.
func (oi orderedIntervals) merge(other orderedIntervals) orderedIntervals {
	var out orderedIntervals
	appendOrMerge := func(iv interval) {
		if n := len(out); n > 0 && iv.First <= out[n-1].Last+1 {
			out[n-1].Last = max(out[n-1].Last, iv.Last)
			return
		}
		out = append(out, iv)
	}
	i, j := 0, 0
	for i < len(oi) && j < len(other) {
		if oi[i].First < other[j].First {
			appendOrMerge(oi[i])
			i++
		} else {
			appendOrMerge(other[j])
			j++
		}
	}
	for ; i < len(oi); i++ {
		appendOrMerge(oi[i])
	}
	for ; j < len(other); j++ {
		appendOrMerge(other[j])
	}
	return out
}

// total counts the indexes of oi.
func (oi orderedIntervals) total() int {
	n := 0
	for _, iv := range oi {
		n += iv.Last - iv.First + 1
	}
	return n
}

// has reports whether ix is in oi.
func (oi orderedIntervals) has(ix int) bool {
	i, _ := slices.BinarySearchFunc(oi, ix, func(iv interval, ix int) int {
		if iv.Last < ix {
			return -1
		}
		return 1
	})
	return i < len(oi) && oi[i].First <= ix
}

// String is the status.completedIndexes form: two adjacent indexes are
// written "3,4", longer runs "3-5".
func (oi orderedIntervals) String() string {
	var b strings.Builder
	for _, iv := range oi {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(iv.First))
		switch {
		case iv.Last == iv.First+1:
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(iv.Last))
		case iv.Last > iv.First:
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(iv.Last))
		}
	}
	return b.String()
}

// parseIndexesFromString reads s (a status.completedIndexes written by
// anyone), keeping the indexes below completions and skipping corrupt
// intervals rather than failing: a user may have written the status.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (parseIndexesFromString).
func parseIndexesFromString(s string, completions int) orderedIntervals {
	if s == "" {
		return nil
	}
	var ivs orderedIntervals
	for part := range strings.SplitSeq(s, ",") {
		first, last, isRange := strings.Cut(part, "-")
		var iv interval
		var err error
		if iv.First, err = strconv.Atoi(first); err != nil || iv.First < 0 || iv.First >= completions {
			continue
		}
		iv.Last = iv.First
		if isRange {
			if iv.Last, err = strconv.Atoi(last); err != nil || iv.Last < iv.First {
				continue
			}
			iv.Last = min(iv.Last, completions-1)
		}
		ivs = append(ivs, iv)
	}
	slices.SortFunc(ivs, func(a, b interval) int { return a.First - b.First })
	return orderedIntervals(nil).merge(ivs)
}

// getCompletionIndex returns the index in a pod's annotations, or
// unknownCompletionIndex when it has none or a malformed one.
func getCompletionIndex(annotations map[string]string) int {
	v, ok := annotations[batchv1.JobCompletionIndexAnnotation]
	if !ok {
		return unknownCompletionIndex
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return unknownCompletionIndex
	}
	return i
}

// validCompletionIndex returns p's index if it is one job has, else
// unknownCompletionIndex.
func validCompletionIndex(job *batchv1.Job, p *corev1.Pod) int {
	ix := getCompletionIndex(p.Annotations)
	if ix == unknownCompletionIndex || ix >= int(completionsOf(job)) {
		return unknownCompletionIndex
	}
	return ix
}

// calculateSucceededIndexes returns the indexes status.completedIndexes
// holds, and those plus the indexes of succeeded pods not yet counted
// (still carrying the tracking finalizer).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (calculateSucceededIndexes).
func calculateSucceededIndexes(job *batchv1.Job, pods []*corev1.Pod) (prev, now orderedIntervals) {
	prev = parseIndexesFromString(job.Status.CompletedIndexes, int(completionsOf(job)))
	var added []int
	for _, p := range pods {
		if ix := validCompletionIndex(job, p); ix != unknownCompletionIndex &&
			p.Status.Phase == corev1.PodSucceeded && hasJobTrackingFinalizer(p) {
			added = append(added, ix)
		}
	}
	slices.Sort(added)
	return prev, prev.withOrderedIndexes(slices.Compact(added))
}

// firstPendingIndexes returns up to count of the lowest indexes that no
// active pod runs and that have not succeeded (nor, when only failed pods
// are replaced, have a terminating pod).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (firstPendingIndexes).
func firstPendingIndexes(jobCtx *syncJobCtx, count, completions int) []int {
	if count <= 0 {
		return nil
	}
	busy := podIndexes(jobCtx.activePods)
	if onlyReplaceFailedPods(jobCtx.job) {
		for _, p := range jobCtx.pods {
			if isPodTerminating(p) {
				if ix := getCompletionIndex(p.Annotations); ix != unknownCompletionIndex {
					busy = append(busy, ix)
				}
			}
		}
	}
	slices.Sort(busy)
	nonPending := jobCtx.succeededIndexes.withOrderedIndexes(slices.Compact(busy))
	var out []int
	candidate := 0
	for _, iv := range nonPending {
		for ; candidate < completions && len(out) < count && candidate < iv.First; candidate++ {
			out = append(out, candidate)
		}
		candidate = max(candidate, iv.Last+1)
	}
	for ; candidate < completions && len(out) < count; candidate++ {
		out = append(out, candidate)
	}
	return out
}

// podIndexes returns the valid indexes of pods, unsorted, with repeats.
func podIndexes(pods []*corev1.Pod) []int {
	var out []int
	for _, p := range pods {
		if ix := getCompletionIndex(p.Annotations); ix != unknownCompletionIndex {
			out = append(out, ix)
		}
	}
	return out
}

// duplicatedIndexPodsForRemoval splits the active pods of an Indexed Job:
// those to remove (without a valid index, or one pod too many of an
// index, keeping the one furthest along) and the others.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (appendDuplicatedIndexPodsForRemoval).
func duplicatedIndexPodsForRemoval(job *batchv1.Job, pods []*corev1.Pod) (rm, left []*corev1.Pod) {
	byIndex := map[int][]*corev1.Pod{}
	for _, p := range pods {
		ix := validCompletionIndex(job, p)
		if ix == unknownCompletionIndex {
			rm = append(rm, p)
			continue
		}
		byIndex[ix] = append(byIndex[ix], p)
	}
	for _, ix := range slices.Sorted(maps.Keys(byIndex)) {
		same := sortActivePodsForDeletion(byIndex[ix])
		rm = append(rm, same[:len(same)-1]...)
		left = append(left, same[len(same)-1])
	}
	return rm, left
}

// indexedPodTemplate returns the template of the pod for index ix: the
// index in an annotation and a label, JOB_COMPLETION_INDEX in every
// container, and the hostname "<job>-<ix>".
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (addCompletionIndexEnvVariables,
// addCompletionIndexAnnotation, addCompletionIndexLabel).
func indexedPodTemplate(template *corev1.PodTemplateSpec, job *batchv1.Job, ix int) *corev1.PodTemplateSpec {
	t := runtime.DeepCopy(template)
	value := strconv.Itoa(ix)
	if t.Annotations == nil {
		t.Annotations = map[string]string{}
	}
	t.Annotations[batchv1.JobCompletionIndexAnnotation] = value
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels[batchv1.JobCompletionIndexAnnotation] = value
	for i := range t.Spec.InitContainers {
		addCompletionIndexEnv(&t.Spec.InitContainers[i])
	}
	for i := range t.Spec.Containers {
		addCompletionIndexEnv(&t.Spec.Containers[i])
	}
	t.Spec.Hostname = fmt.Sprintf("%s-%d", job.Name, ix)
	return t
}

func addCompletionIndexEnv(c *corev1.Container) {
	for _, e := range c.Env {
		if e.Name == completionIndexEnvName {
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: completionIndexEnvName, ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: fmt.Sprintf("metadata.labels['%s']", batchv1.JobCompletionIndexAnnotation)},
	}})
}

// indexedPodGenerateName is "<job>-<ix>-", as upstream names the pods of
// an Indexed Job, or podGenerateName's fallback when that is invalid.
func indexedPodGenerateName(jobName string, ix int) string {
	return podGenerateName(fmt.Sprintf("%s-%d", jobName, ix))
}
