package job

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/logging"
)

// MaxUncountedPods bounds each list of status.uncountedTerminatedPods, so
// the status stays around 20 KB and one big Job's sync does not starve
// the others; the rest are counted in the next syncs.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (MaxUncountedPods).
const MaxUncountedPods = 500

// How a finished pod is counted exactly once, even if it is deleted right
// after it finished (upstream's "job tracking with finalizers"):
//
//	pod finished, has finalizer, not in the status
//	  -> 1. its UID is added to status.uncountedTerminatedPods (written)
//	  -> 2. its finalizer is removed (now it may go away)
//	  -> 3. its UID moves from uncountedTerminatedPods to succeeded/failed
//	        (written)
//
// A crash between the steps is repaired by the next sync: a UID in the
// uncounted lists whose pod has no finalizer any more (or is gone) is
// moved to the counters; a pod with a finalizer is never counted twice
// because its UID is in the lists. finalizerExpectations covers the
// moment between step 2 and the pod informer showing it, and Reconcile
// reads the Job fresh while the Job informer does not show step 3 yet (a
// pod past step 2 is counted nowhere in a Job from before step 1).

// uncountedSets is status.uncountedTerminatedPods as read at the start
// of a sync.
type uncountedSets struct {
	succeeded, failed map[string]struct{}
}

func newUncountedSets(in *batchv1.UncountedTerminatedPods) uncountedSets {
	u := uncountedSets{succeeded: map[string]struct{}{}, failed: map[string]struct{}{}}
	for _, uid := range in.Succeeded {
		u.succeeded[uid] = struct{}{}
	}
	for _, uid := range in.Failed {
		u.failed[uid] = struct{}{}
	}
	return u
}

// trackJobStatusAndRemoveFinalizers counts the finished pods and writes
// the Job's status, in the steps described above:
//
//  1. add the finished pods with a finalizer to uncountedTerminatedPods,
//     and the interim condition (FailureTarget, SuccessCriteriaMet) if the
//     Job is finishing;
//  2. remove their finalizers;
//  3. move the pods whose finalizer is gone to the counters;
//  4. add Complete or Failed if the Job has finished.
//
// It handles at most MaxUncountedPods pods per sync. needsFlush says
// whether the status must be written even if no pod finished.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job
// (Controller.trackJobStatusAndRemoveFinalizers).
func (c *Controller) trackJobStatusAndRemoveFinalizers(ctx context.Context, jobCtx *syncJobCtx, needsFlush bool) error {
	job := jobCtx.job
	isIndexed := isIndexedJob(job)
	uncounted := job.Status.UncountedTerminatedPods
	var podsToRemoveFinalizer []*corev1.Pod
	var newSucceededIndexes []int

	uidsWithFinalizer := map[string]struct{}{}
	for _, p := range jobCtx.pods {
		if _, expected := jobCtx.expectedRmFinalizers[p.UID]; hasJobTrackingFinalizer(p) && !expected {
			uidsWithFinalizer[p.UID] = struct{}{}
		}
	}
	oldCounters := job.Status
	if cleanUncountedPodsWithoutFinalizers(&job.Status, uidsWithFinalizer) {
		needsFlush = true
	}
	reachedMaxUncountedPods := false
	for _, pod := range jobCtx.pods {
		if _, expected := jobCtx.expectedRmFinalizers[pod.UID]; !hasJobTrackingFinalizer(pod) || expected {
			continue // counted by an earlier sync
		}
		considerFailed := isPodFailed(pod, job)
		if !canRemoveFinalizer(jobCtx, pod, considerFailed) {
			continue
		}
		podsToRemoveFinalizer = append(podsToRemoveFinalizer, pod)
		_, uncountedFailed := jobCtx.uncounted.failed[pod.UID]
		switch {
		case pod.Status.Phase == corev1.PodSucceeded && !uncountedFailed:
			if isIndexed {
				// The index is enough not to count a pod twice.
				ix := validCompletionIndex(job, pod)
				if ix != unknownCompletionIndex && !jobCtx.prevSucceededIndexes.has(ix) {
					newSucceededIndexes = append(newSucceededIndexes, ix)
					needsFlush = true
				}
			} else if _, ok := jobCtx.uncounted.succeeded[pod.UID]; !ok {
				uncounted.Succeeded = append(uncounted.Succeeded, pod.UID)
				needsFlush = true
			}
		case considerFailed || jobCtx.finishedCondition != nil && jobCtx.finishedCondition.Type != batchv1.JobSuccessCriteriaMet:
			// A Job that is failing counts every unfinished pod as failed.
			validIndex := !isIndexed || validCompletionIndex(job, pod) != unknownCompletionIndex
			if uncountedFailed || !validIndex {
				break
			}
			if _, countFailed, _ := matchPodFailurePolicy(job.Spec.PodFailurePolicy, pod); countFailed {
				uncounted.Failed = append(uncounted.Failed, pod.UID)
				needsFlush = true
			}
		}
		if len(newSucceededIndexes)+len(uncounted.Succeeded)+len(uncounted.Failed) >= MaxUncountedPods {
			// Enough for one sync; the status and pod updates bring the
			// Job back for the rest.
			reachedMaxUncountedPods = true
			break
		}
	}
	if isIndexed {
		slices.Sort(newSucceededIndexes)
		jobCtx.succeededIndexes = jobCtx.succeededIndexes.withOrderedIndexes(slices.Compact(newSucceededIndexes))
		completed := jobCtx.succeededIndexes.String()
		if completed != job.Status.CompletedIndexes {
			needsFlush = true
		}
		job.Status.Succeeded = int32(jobCtx.succeededIndexes.total())
		job.Status.CompletedIndexes = completed
	}
	if cond := jobCtx.finishedCondition; cond != nil &&
		(cond.Type == batchv1.JobFailureTarget || cond.Type == batchv1.JobSuccessCriteriaMet) {
		// Write the interim condition before any finalizer goes, so the
		// verdict survives a crash; the terminal one follows it.
		if hasTrueCondition(job, cond.Type) == nil {
			job.Status.Conditions = append(job.Status.Conditions, *cond)
			needsFlush = true
		}
		jobCtx.finishedCondition = finalCondition(cond, c.clock.Now())
	}
	needsFlush, err := c.flushUncountedAndRemoveFinalizers(ctx, jobCtx, podsToRemoveFinalizer, uidsWithFinalizer, needsFlush)
	if err != nil {
		return err
	}
	jobFinished := !reachedMaxUncountedPods && c.enactJobFinished(ctx, jobCtx)
	if jobFinished {
		needsFlush = true
	}
	if !needsFlush {
		return nil
	}
	updated, err := c.updateJobStatus(ctx, jobCtx.job)
	if err != nil {
		return fmt.Errorf("removing uncounted pods from status: %w", err)
	}
	jobCtx.job = updated
	if jobFinished {
		c.recordJobFinished(updated, jobCtx.finishedCondition)
	}
	logCounters(ctx, updated, &oldCounters)
	return nil
}

// canRemoveFinalizer reports whether pod's finalizer may go now: the Job
// is being deleted or finishing, or the pod succeeded, or it failed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (canRemoveFinalizer).
func canRemoveFinalizer(jobCtx *syncJobCtx, pod *corev1.Pod, considerFailed bool) bool {
	return jobCtx.job.DeletionTimestamp != nil || jobCtx.finishedCondition != nil ||
		pod.Status.Phase == corev1.PodSucceeded || considerFailed
}

// flushUncountedAndRemoveFinalizers writes the status with the new
// uncounted pods (if needsFlush), stores the backoff record, removes the
// finalizers, and moves the pods whose finalizer is gone to the counters;
// when some removal failed it writes that partial progress too. It
// returns whether the status still has changes to write.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job
// (Controller.flushUncountedAndRemoveFinalizers).
func (c *Controller) flushUncountedAndRemoveFinalizers(ctx context.Context, jobCtx *syncJobCtx, podsToRemoveFinalizer []*corev1.Pod, uidsWithFinalizer map[string]struct{}, needsFlush bool) (bool, error) {
	if needsFlush {
		updated, err := c.updateJobStatus(ctx, jobCtx.job)
		if err != nil {
			return needsFlush, fmt.Errorf("adding uncounted pods to status: %w", err)
		}
		jobCtx.job = updated
		// Only now are the pods of the record in the status: stored
		// earlier, a failed write would count them twice.
		c.podBackoff.update(jobCtx.newBackoffRecord)
		needsFlush = false
	}
	var rmErr error
	if len(podsToRemoveFinalizer) > 0 {
		var removed []bool
		removed, rmErr = c.removeTrackingFinalizerFromPods(ctx, jobKey(jobCtx.job), podsToRemoveFinalizer)
		for i, p := range podsToRemoveFinalizer {
			if removed[i] {
				delete(uidsWithFinalizer, p.UID)
			}
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&jobCtx.job.Status, uidsWithFinalizer) {
		needsFlush = true
	}
	if rmErr != nil && needsFlush {
		updated, err := c.updateJobStatus(ctx, jobCtx.job)
		if err != nil {
			return needsFlush, errors.Join(rmErr, fmt.Errorf("removing uncounted pods from status: %w", err))
		}
		jobCtx.job = updated
		needsFlush = false
	}
	return needsFlush, rmErr
}

// cleanUncountedPodsWithoutFinalizers moves the UIDs of the uncounted
// lists whose pod no longer has a finalizer to the counters, reporting
// whether the status changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (cleanUncountedPodsWithoutFinalizers).
func cleanUncountedPodsWithoutFinalizers(status *batchv1.JobStatus, uidsWithFinalizer map[string]struct{}) bool {
	updated := false
	u := status.UncountedTerminatedPods
	keep := func(uids []string) []string {
		var out []string
		for _, uid := range uids {
			if _, ok := uidsWithFinalizer[uid]; ok {
				out = append(out, uid)
			}
		}
		return out
	}
	if left := keep(u.Succeeded); len(left) != len(u.Succeeded) {
		status.Succeeded += int32(len(u.Succeeded) - len(left))
		u.Succeeded = left
		updated = true
	}
	if left := keep(u.Failed); len(left) != len(u.Failed) {
		status.Failed += int32(len(u.Failed) - len(left))
		u.Failed = left
		updated = true
	}
	return updated
}

// removeTrackingFinalizerFromPods patches the finalizer away from pods, in
// parallel, reporting per pod whether it is gone (a pod already deleted
// counts as done).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job
// (Controller.removeTrackingFinalizerFromPods).
func (c *Controller) removeTrackingFinalizerFromPods(ctx context.Context, key string, pods []*corev1.Pod) ([]bool, error) {
	uids := make([]string, len(pods))
	for i, p := range pods {
		uids[i] = p.UID
	}
	c.finalizerExpectations.expectFinalizersRemoved(key, uids)
	removed := make([]bool, len(pods))
	errs := make([]error, len(pods))
	var wg sync.WaitGroup
	for i, pod := range pods {
		wg.Go(func() {
			patch := removeTrackingFinalizerPatch(pod)
			if patch == nil {
				removed[i] = true
				return
			}
			_, err := c.cs.Pods(pod.Namespace).Patch(ctx, pod.Name, client.StrategicMergePatchType, patch, client.WriteOptions{})
			if err != nil {
				// No update will show the finalizer gone: stop waiting.
				c.finalizerExpectations.finalizerRemovalObserved(key, pod.UID)
				if !apierrors.IsNotFound(err) {
					errs[i] = fmt.Errorf("removing tracking finalizer from pod %s: %w", pod.Name, err)
					return
				}
			}
			removed[i] = true
		})
	}
	wg.Wait()
	return removed, errors.Join(errs...)
}

// enactJobFinished adds the terminal condition (and the completion time)
// once the Job has one to add, every pod is counted and none is
// terminating. It reports whether it did.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.enactJobFinished).
func (c *Controller) enactJobFinished(ctx context.Context, jobCtx *syncJobCtx) bool {
	cond := jobCtx.finishedCondition
	if cond == nil {
		return false
	}
	job := jobCtx.job
	if u := job.Status.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		logging.FromContext(ctx).DebugContext(ctx, "job finishing: pods still uncounted", "condition", cond.Type)
		return false
	}
	if jobCtx.terminating > 0 {
		logging.FromContext(ctx).DebugContext(ctx, "job finishing: pods still terminating", "condition", cond.Type)
		return false
	}
	job.Status.Conditions, _ = ensureJobConditionStatus(job.Status.Conditions, cond.Type, cond.Status, cond.Reason, cond.Message, c.clock.Now())
	if cond.Type == batchv1.JobComplete {
		t := cond.LastTransitionTime
		job.Status.CompletionTime = &t
	}
	return true
}

// recordJobFinished emits the Job's last Event: Completed, or the reason
// it failed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.recordJobFinished).
func (c *Controller) recordJobFinished(job *batchv1.Job, cond *batchv1.JobCondition) {
	job = withTypeMeta(job)
	if cond.Type == batchv1.JobComplete {
		if job.Spec.Completions != nil && job.Status.Succeeded > *job.Spec.Completions {
			c.recorder.Event(job, corev1.EventTypeWarning, "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
		}
		c.recorder.Event(job, corev1.EventTypeNormal, "Completed", "Job completed")
		return
	}
	c.recorder.Event(job, corev1.EventTypeWarning, cond.Reason, cond.Message)
}

// updateJobStatus writes job's status through the status subresource;
// it fails with a Conflict when job is stale.
func (c *Controller) updateJobStatus(ctx context.Context, job *batchv1.Job) (*batchv1.Job, error) {
	updated, err := c.cs.Jobs(job.Namespace).UpdateStatus(ctx, job, client.WriteOptions{})
	if err != nil {
		return nil, err
	}
	c.written.set(jobKey(updated), updated.ResourceVersion)
	if updated.Status.UncountedTerminatedPods == nil {
		updated.Status.UncountedTerminatedPods = &batchv1.UncountedTerminatedPods{}
	}
	return updated, nil
}

// logCounters logs the pods the write counted, one Debug record per sync.
func logCounters(ctx context.Context, job *batchv1.Job, old *batchv1.JobStatus) {
	if job.Status.Succeeded != old.Succeeded || job.Status.Failed != old.Failed {
		logging.FromContext(ctx).DebugContext(ctx, "pods counted",
			"succeeded", job.Status.Succeeded-old.Succeeded, "failed", job.Status.Failed-old.Failed)
	}
}
