package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/logging"
)

// MaxPodCreateDeletePerSync bounds the pods one sync creates or deletes,
// so one huge Job does not starve the others; the next sync goes on.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (MaxPodCreateDeletePerSync).
const MaxPodCreateDeletePerSync = 500

// slowStartInitialBatchSize is the first batch of pod creations; each
// batch that succeeds doubles the next. A Job whose creations all fail
// (a quota, a bad template) then fails once, not once per pod, and does
// not flood the API server or the Events.
//
// Upstream: k8s.io/kubernetes/pkg/controller (SlowStartInitialBatchSize).
const slowStartInitialBatchSize = 1

// manageJob makes the Job's active pods as many as it wants: none while
// suspended; parallelism, bounded by the completions still needed; and,
// for a Job without completions that has succeeded once, the pods still
// running. It creates pods only once the backoff of the last failures is
// over (asking for a sync then), and either creates or deletes in one
// sync, never both. It returns the active count after its actions.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.manageJob).
func (c *Controller) manageJob(ctx context.Context, jobCtx *syncJobCtx) (int32, error) {
	job := jobCtx.job
	key := jobKey(job)
	active := int32(len(jobCtx.activePods))
	if jobSuspended(job) {
		rm := activePodsForRemoval(job, jobCtx.activePods, len(jobCtx.activePods))
		removedReady, removed, err := c.deleteJobPods(ctx, job, key, rm)
		jobCtx.terminating += removed
		jobCtx.ready -= removedReady
		return active - removed, err
	}

	parallelism := parallelismOf(job)
	var wantActive int32
	switch {
	case job.Spec.Completions == nil && jobCtx.succeeded > 0:
		// A success means the work is done: start nothing more, let the
		// pods still running finish.
		wantActive = active
	case job.Spec.Completions == nil:
		wantActive = parallelism
	default:
		// Never more pods than completions still needed.
		wantActive = max(min(completionsOf(job)-jobCtx.succeeded, parallelism), 0)
	}

	rm := activePodsForRemoval(job, jobCtx.activePods, int(max(active-wantActive, 0)))
	if len(rm) > MaxPodCreateDeletePerSync {
		rm = rm[:MaxPodCreateDeletePerSync]
	}
	if len(rm) > 0 {
		removedReady, removed, err := c.deleteJobPods(ctx, job, key, rm)
		jobCtx.terminating += removed
		jobCtx.ready -= removedReady
		// Deleting takes precedence over creating: an Indexed Job with
		// repeated indexes creates its missing ones next sync.
		return active - removed, err
	}

	var terminating int32
	if onlyReplaceFailedPods(job) {
		terminating = jobCtx.terminating
	}
	diff := wantActive - terminating - active
	if diff <= 0 {
		return active, nil
	}
	if remaining := jobCtx.newBackoffRecord.remainingTime(c.clock, DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff); remaining > 0 {
		logging.FromContext(ctx).DebugContext(ctx, "pod failure backoff, will create pods later", "after", remaining)
		jobCtx.requeueAfterAtMost(remaining)
		// Upstream returns 0 here, which reports no active pods while
		// some run; the count of those that do is kept instead.
		return active, nil
	}
	diff = min(diff, MaxPodCreateDeletePerSync)
	var indexes []int
	if isIndexedJob(job) {
		indexes = firstPendingIndexes(jobCtx, int(diff), int(completionsOf(job)))
		diff = int32(len(indexes))
		if diff == 0 {
			return active, nil
		}
	}
	created, err := c.createPods(ctx, job, key, int(diff), indexes)
	return active + int32(created), err
}

// createPods creates n pods of job (one per index of indexes, for an
// Indexed Job) in slow-start batches, expecting their creations first. It
// returns how many it created; the creations it did not make are no
// longer expected.
func (c *Controller) createPods(ctx context.Context, job *batchv1.Job, key string, n int, indexes []int) (int, error) {
	c.expectations.ExpectCreations(key, n)
	var (
		mu      sync.Mutex
		created int
		errs    []error
	)
	for batch := min(n, slowStartInitialBatchSize); n > 0; batch = min(2*batch, n) {
		failedBefore := len(errs)
		var wg sync.WaitGroup
		for range batch {
			ix := unknownCompletionIndex
			if len(indexes) > 0 {
				ix, indexes = indexes[0], indexes[1:]
			}
			wg.Go(func() {
				err := c.createPod(ctx, job, ix)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					// No watch event will come for a pod never created.
					c.expectations.CreationObserved(key)
					errs = append(errs, err)
					return
				}
				created++
			})
		}
		wg.Wait()
		n -= batch
		if len(errs) > failedBefore && n > 0 {
			// The batch failed: skip the rest until the next sync.
			for range n {
				c.expectations.CreationObserved(key)
			}
			break
		}
	}
	return created, errors.Join(errs...)
}

// createPod creates one pod of job, for index ix unless it is
// unknownCompletionIndex, and records SuccessfulCreate or FailedCreate.
//
// Upstream: k8s.io/kubernetes/pkg/controller (RealPodControl.CreatePodsWithGenerateName).
func (c *Controller) createPod(ctx context.Context, job *batchv1.Job, ix int) error {
	template, generateName := &job.Spec.Template, podGenerateName(job.Name)
	if ix != unknownCompletionIndex {
		template, generateName = indexedPodTemplate(template, job, ix), indexedPodGenerateName(job.Name, ix)
	}
	pod, err := c.cs.Pods(job.Namespace).Create(ctx, podFromTemplate(template, job, generateName), client.WriteOptions{})
	if err != nil {
		if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			// Every creation fails from now on, and the Job goes with
			// its namespace: no Event.
			return err
		}
		c.recorder.Eventf(withTypeMeta(job), corev1.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		return fmt.Errorf("create pod of job %s/%s: %w", job.Namespace, job.Name, err)
	}
	logging.FromContext(ctx).DebugContext(ctx, "created pod", "pod", pod.Name)
	c.recorder.Eventf(withTypeMeta(job), corev1.EventTypeNormal, "SuccessfulCreate", "Created pod: %v", pod.Name)
	return nil
}

// deleteJobPods deletes pods the Job no longer wants, expecting their
// deletions; the tracking finalizer is removed first, since a pod deleted
// on purpose is not a failure to count. It returns how many of the
// deleted pods were ready, and how many it deleted.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.deleteJobPods).
func (c *Controller) deleteJobPods(ctx context.Context, job *batchv1.Job, key string, pods []*corev1.Pod) (int32, int32, error) {
	if len(pods) == 0 {
		return 0, 0, nil
	}
	uids := make([]string, len(pods))
	for i, p := range pods {
		uids[i] = p.UID
	}
	c.expectations.ExpectDeletions(key, uids)
	return c.deletePods(ctx, job, pods, func(pod *corev1.Pod) error {
		if patch := removeTrackingFinalizerPatch(pod); patch != nil {
			if _, err := c.cs.Pods(pod.Namespace).Patch(ctx, pod.Name, client.StrategicMergePatchType, patch, client.WriteOptions{}); err != nil {
				return fmt.Errorf("removing tracking finalizer: %w", err)
			}
		}
		return nil
	}, func(pod *corev1.Pod) {
		// No watch event will come for a deletion that did not happen.
		c.expectations.DeletionObserved(key, pod.UID)
	})
}

// deleteActivePods deletes the active pods of a Job that is finishing,
// keeping their finalizers: trackJobStatusAndRemoveFinalizers counts them
// as failed and removes the finalizers, after which they go.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.deleteActivePods).
func (c *Controller) deleteActivePods(ctx context.Context, job *batchv1.Job, pods []*corev1.Pod) (int32, int32, error) {
	return c.deletePods(ctx, job, pods, nil, nil)
}

// deletePods deletes pods in parallel, after prepare (if any) succeeded
// for each; failed (if any) is called for each pod not deleted. A pod
// already gone counts as deleted. It returns the ready and total counts
// of the deleted pods, and the errors joined.
func (c *Controller) deletePods(ctx context.Context, job *batchv1.Job, pods []*corev1.Pod, prepare func(*corev1.Pod) error, failed func(*corev1.Pod)) (int32, int32, error) {
	var (
		mu           sync.Mutex
		ready, total int32
		errs         []error
		wg           sync.WaitGroup
	)
	for _, pod := range pods {
		wg.Go(func() {
			err := c.removePod(ctx, job, pod, prepare)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if failed != nil {
					failed(pod)
				}
				errs = append(errs, err)
				return
			}
			total++
			if isPodReady(pod) {
				ready++
			}
		})
	}
	wg.Wait()
	return ready, total, errors.Join(errs...)
}

// removePod deletes one pod of job and records SuccessfulDelete or
// FailedDelete; a pod already gone is not an error.
//
// Upstream: k8s.io/kubernetes/pkg/controller (RealPodControl.DeletePod).
func (c *Controller) removePod(ctx context.Context, job *batchv1.Job, pod *corev1.Pod, prepare func(*corev1.Pod) error) error {
	var err error
	if prepare != nil {
		err = prepare(pod)
	}
	if err == nil {
		err = c.cs.Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{})
	}
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		c.recorder.Eventf(withTypeMeta(job), corev1.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
		return fmt.Errorf("delete pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	logging.FromContext(ctx).DebugContext(ctx, "deleted pod", "pod", pod.Name)
	c.recorder.Eventf(withTypeMeta(job), corev1.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %v", pod.Name)
	return nil
}

// activePodsForRemoval returns the active pods to remove: for an Indexed
// Job those with a repeated or invalid index, then, to reach rmAtLeast,
// those earliest in their lives (see sortActivePodsForDeletion).
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (activePodsForRemoval).
func activePodsForRemoval(job *batchv1.Job, pods []*corev1.Pod, rmAtLeast int) []*corev1.Pod {
	var rm []*corev1.Pod
	left := pods
	if isIndexedJob(job) {
		rm, left = duplicatedIndexPodsForRemoval(job, pods)
	}
	if len(rm) < rmAtLeast {
		rm = append(rm, sortActivePodsForDeletion(left)[:min(rmAtLeast-len(rm), len(left))]...)
	}
	return rm
}

// adoptionPatcher returns the RefManager's patch function for pods of ns:
// an adoption also adds the tracking finalizer, in the same patch, so an
// adopted pod is counted like one the Job created.
//
// Upstream: k8s.io/kubernetes/pkg/controller (NewPodControllerRefManager
// with finalizers).
func (c *Controller) adoptionPatcher(ns string) controllerref.PatchFunc {
	return func(ctx context.Context, name string, patch []byte) error {
		var doc map[string]map[string]json.RawMessage
		if err := json.Unmarshal(patch, &doc); err == nil {
			if meta := doc["metadata"]; meta != nil && isAdoption(meta["ownerReferences"]) {
				meta["finalizers"], _ = json.Marshal([]string{batchv1.JobTrackingFinalizer})
				if p, err := json.Marshal(doc); err == nil {
					patch = p
				}
			}
		}
		_, err := c.cs.Pods(ns).Patch(ctx, name, client.StrategicMergePatchType, patch, client.WriteOptions{})
		return err
	}
}

// isAdoption reports whether the ownerReferences of a RefManager patch add
// a reference (adopt) rather than delete one (release, "$patch": "delete").
func isAdoption(refs json.RawMessage) bool {
	if refs == nil {
		return false
	}
	var list []map[string]any
	if err := json.Unmarshal(refs, &list); err != nil || len(list) == 0 {
		return false
	}
	_, release := list[0]["$patch"]
	return !release
}
