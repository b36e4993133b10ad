package job

import (
	"context"
	"fmt"
	"math"
	"time"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/logging"
)

// syncJobCtx is what one sync of a Job has learned: the Job (a copy the
// sync writes into), its pods, and the counts and verdict derived from
// them.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (syncJobCtx).
type syncJobCtx struct {
	job        *batchv1.Job
	pods       []*corev1.Pod
	activePods []*corev1.Pod
	// finishedCondition is the verdict, nil while the Job runs: an
	// interim condition (FailureTarget, SuccessCriteriaMet) or the
	// terminal one it announces.
	finishedCondition *batchv1.JobCondition
	succeeded, failed int32
	// prevSucceededIndexes and succeededIndexes are an Indexed Job's
	// completed indexes before and after this sync.
	prevSucceededIndexes orderedIntervals
	succeededIndexes     orderedIntervals
	newBackoffRecord     backoffRecord
	expectedRmFinalizers map[string]struct{}
	uncounted            uncountedSets
	terminating          int32
	ready                int32
	// requeueAfter is when the Job must be synced again though nothing
	// changes (backoff over, deadline reached); 0 for never.
	requeueAfter time.Duration
}

// requeueAfterAtMost makes the sync ask to run again within d.
func (j *syncJobCtx) requeueAfterAtMost(d time.Duration) {
	// A deadline already past still needs one more sync: ask for the
	// shortest delay there is.
	d = max(d, time.Nanosecond)
	if j.requeueAfter == 0 || d < j.requeueAfter {
		j.requeueAfter = d
	}
}

// syncJob brings one Job towards its spec, the Job flow's seven steps
// from the controller's side: count the pods that finished since the last
// sync (exit 0 succeeded, else failed); decide whether the Job has
// failed (backoffLimit, activeDeadlineSeconds, a pod failure policy) or
// completed; otherwise create the pods it is short of, after the backoff
// of its last failures, or delete those it has too many of; then write
// the status. shared is the cached Job; it is not modified.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.syncJob).
func (c *Controller) syncJob(ctx context.Context, key string, shared *batchv1.Job) (reconcile.Result, error) {
	log := logging.FromContext(ctx)
	if name := managedByExternalController(shared); name != nil {
		log.DebugContext(ctx, "job managed by another controller, skipped", "managedBy", *name)
		return reconcile.Result{}, nil
	}
	job := shared.DeepCopy()
	if IsJobFinished(job) {
		// Done before: the termination is not redone.
		c.podBackoff.remove(key)
		return reconcile.Result{}, nil
	}
	if m := job.Spec.CompletionMode; m != nil && *m != batchv1.NonIndexedCompletion && *m != batchv1.IndexedCompletion {
		c.recorder.Event(withTypeMeta(job), corev1.EventTypeWarning, "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown")
		return reconcile.Result{}, nil
	}
	if isIndexedJob(job) && job.Spec.Completions == nil {
		// Validation forbids it; a Job that got past it is left alone
		// rather than guessed at.
		return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("indexed job %s has no completions", key))
	}
	if job.Status.UncountedTerminatedPods == nil {
		job.Status.UncountedTerminatedPods = &batchv1.UncountedTerminatedPods{}
	}

	// Read the expectations before the pods: a pod created after the
	// check is in the cache or not, and either way the next sync sees it.
	satisfied := c.expectations.Satisfied(key)
	pods, err := c.getPodsForJob(ctx, job)
	if err != nil {
		return reconcile.Result{}, err
	}
	jobCtx := &syncJobCtx{
		job:                  job,
		pods:                 pods,
		activePods:           filterActivePods(pods),
		uncounted:            newUncountedSets(job.Status.UncountedTerminatedPods),
		expectedRmFinalizers: c.finalizerExpectations.getExpectedUIDs(key),
		terminating:          countTerminatingPods(pods),
	}
	jobCtx.ready = countReadyPods(jobCtx.activePods)
	active := int32(len(jobCtx.activePods))
	newSucceeded, newFailed := getNewFinishedPods(jobCtx)
	jobCtx.succeeded = job.Status.Succeeded + int32(len(newSucceeded)) + int32(len(jobCtx.uncounted.succeeded))
	jobCtx.failed = job.Status.Failed + nonIgnoredFailedPodsCount(job, newFailed) + int32(len(jobCtx.uncounted.failed))

	startTimeSet := false
	if job.Status.StartTime == nil && !jobSuspended(job) {
		now := metav1.NewTime(c.clock.Now())
		job.Status.StartTime = &now
		startTimeSet = true
	}
	jobCtx.newBackoffRecord = c.podBackoff.newRecord(key, newSucceeded, newFailed)

	c.decideFinished(ctx, jobCtx)
	if isIndexedJob(job) {
		jobCtx.prevSucceededIndexes, jobCtx.succeededIndexes = calculateSucceededIndexes(job, pods)
		jobCtx.succeeded = int32(jobCtx.succeededIndexes.total())
	}

	var manageJobErr error
	suspendCondChanged := false
	if jobCtx.finishedCondition != nil {
		deletedReady, deleted, err := c.deleteActivePods(ctx, job, jobCtx.activePods)
		if deleted != active || !satisfied {
			// Not finished yet: some pods are still there, or pods the
			// cache does not show yet may be.
			jobCtx.finishedCondition = nil
		}
		active -= deleted
		jobCtx.terminating += deleted
		jobCtx.ready -= deletedReady
		manageJobErr = err
	} else {
		manageJobCalled := false
		if satisfied && job.DeletionTimestamp == nil {
			active, manageJobErr = c.manageJob(ctx, jobCtx)
			manageJobCalled = true
		}
		var complete bool
		if job.Spec.Completions == nil {
			// Any success completes a Job without completions, once the
			// pods still running have finished.
			complete = jobCtx.succeeded > 0 && active == 0
		} else {
			complete = jobCtx.succeeded >= *job.Spec.Completions && active == 0
		}
		if complete {
			jobCtx.finishedCondition = newSuccessCondition(c.clock.Now())
		} else if manageJobCalled {
			suspendCondChanged = c.updateSuspendCondition(job)
		}
	}

	needsStatusUpdate := suspendCondChanged || startTimeSet || active != job.Status.Active ||
		!int32PtrEqual(&jobCtx.ready, job.Status.Ready) || !int32PtrEqual(&jobCtx.terminating, job.Status.Terminating)
	job.Status.Active = active
	job.Status.Ready = &jobCtx.ready
	job.Status.Terminating = &jobCtx.terminating
	if err := c.trackJobStatusAndRemoveFinalizers(ctx, jobCtx, needsStatusUpdate); err != nil {
		return reconcile.Result{}, fmt.Errorf("tracking status: %w", err)
	}
	return reconcile.Result{RequeueAfter: jobCtx.requeueAfter}, manageJobErr
}

// decideFinished sets jobCtx.finishedCondition when the Job has failed or
// was declared successful before, and otherwise asks for a sync at its
// active deadline.
func (c *Controller) decideFinished(ctx context.Context, jobCtx *syncJobCtx) {
	job := jobCtx.job
	now := c.clock.Now()
	if cond := hasTrueCondition(job, batchv1.JobSuccessCriteriaMet); cond != nil {
		// A verdict of an earlier sync stands: the pod failure policy is
		// not evaluated again.
		jobCtx.finishedCondition = cond
		return
	}
	if cond := hasTrueCondition(job, batchv1.JobFailureTarget); cond != nil {
		jobCtx.finishedCondition = finalCondition(cond, now)
		return
	}
	if msg := getFailJobMessage(job, jobCtx.pods); msg != nil {
		jobCtx.finishedCondition = newFailureCondition(batchv1.JobReasonPodFailurePolicy, *msg, now)
		return
	}
	switch {
	case jobCtx.failed > backoffLimitOf(job) || pastBackoffLimitOnFailure(job, jobCtx.pods):
		jobCtx.finishedCondition = newFailureCondition(batchv1.JobReasonBackoffLimitExceeded, "Job has reached the specified backoff limit", now)
	case c.pastActiveDeadline(job):
		jobCtx.finishedCondition = newFailureCondition(batchv1.JobReasonDeadlineExceeded, "Job was active longer than specified deadline", now)
	case job.Spec.ActiveDeadlineSeconds != nil && !jobSuspended(job) && job.Status.StartTime != nil:
		left := time.Duration(*job.Spec.ActiveDeadlineSeconds)*time.Second - c.clock.Since(job.Status.StartTime.Time)
		logging.FromContext(ctx).DebugContext(ctx, "job has an active deadline, will sync again", "after", left)
		jobCtx.requeueAfterAtMost(left)
	}
}

// updateSuspendCondition sets the Suspended condition as spec.suspend
// says, emitting Suspended or Resumed when it changes; a resumed Job
// starts its active deadline afresh. It reports whether it changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.syncJob).
func (c *Controller) updateSuspendCondition(job *batchv1.Job) bool {
	now := c.clock.Now()
	if jobSuspended(job) {
		var changed bool
		job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, batchv1.JobSuspended, corev1.ConditionTrue, "JobSuspended", "Job suspended", now)
		if changed {
			c.recorder.Event(withTypeMeta(job), corev1.EventTypeNormal, "Suspended", "Job suspended")
		}
		return changed
	}
	var changed bool
	job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, batchv1.JobSuspended, corev1.ConditionFalse, "JobResumed", "Job resumed", now)
	if changed {
		c.recorder.Event(withTypeMeta(job), corev1.EventTypeNormal, "Resumed", "Job resumed")
		// activeDeadlineSeconds counts the time a Job is continuously
		// active, so it restarts on resume.
		start := metav1.NewTime(now)
		job.Status.StartTime = &start
	}
	return changed
}

// getPodsForJob returns the Job's pods: those it controls, after adopting
// the orphans its selector matches (with the tracking finalizer) and
// releasing those it no longer matches. The pods are the cache's.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.getPodsForJob).
func (c *Controller) getPodsForJob(ctx context.Context, job *batchv1.Job) ([]*corev1.Pod, error) {
	if job.Spec.Selector == nil {
		// Validation makes this impossible; no selector must not mean
		// every pod of the namespace.
		return nil, reconcile.TerminalError(fmt.Errorf("job %s/%s has no selector", job.Namespace, job.Name))
	}
	selector, err := labels.FromLabelSelector(job.Spec.Selector)
	if err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("job %s/%s: invalid selector: %w", job.Namespace, job.Name, err))
	}
	// Every pod of the namespace: those that no longer match but are
	// still the Job's must be released.
	all, err := c.pods.ByNamespace(job.Namespace).List(nil)
	if err != nil {
		return nil, err
	}
	objs := make([]metav1.Object, len(all))
	for i, p := range all {
		objs[i] = p
	}
	jobs := c.cs.Jobs(job.Namespace)
	m := &controllerref.RefManager{
		Controller:     &job.ObjectMeta,
		ControllerKind: controllerKind,
		Selector:       selector,
		CanAdopt: controllerref.RecheckDeletionTimestamp(&job.ObjectMeta, func(ctx context.Context) (*metav1.ObjectMeta, error) {
			fresh, err := jobs.Get(ctx, job.Name, client.GetOptions{})
			if err != nil {
				return nil, err
			}
			return &fresh.ObjectMeta, nil
		}),
		Patch: c.adoptionPatcher(job.Namespace),
	}
	claimed, err := m.Claim(ctx, objs)
	pods := make([]*corev1.Pod, 0, len(claimed))
	for _, obj := range claimed {
		p := obj.(*corev1.Pod)
		if p.ControllerRef() == nil && !hasJobTrackingFinalizer(p) {
			// Just adopted, and the patch added the finalizer: count it
			// as the pod now is, on a copy (the cache's is shared).
			p = p.DeepCopy()
			p.Finalizers = append(p.Finalizers, batchv1.JobTrackingFinalizer)
		}
		pods = append(pods, p)
	}
	return pods, err
}

// getNewFinishedPods returns the pods that finished since the last sync:
// they still have the tracking finalizer, are not in the uncounted lists
// already, and (for an Indexed Job) have a valid index.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (getNewFinishedPods).
func getNewFinishedPods(jobCtx *syncJobCtx) (succeeded, failed []*corev1.Pod) {
	for _, p := range jobCtx.pods {
		if !hasJobTrackingFinalizer(p) {
			continue
		}
		if _, ok := jobCtx.expectedRmFinalizers[p.UID]; ok {
			continue
		}
		if isIndexedJob(jobCtx.job) && validCompletionIndex(jobCtx.job, p) == unknownCompletionIndex {
			continue
		}
		_, inSucceeded := jobCtx.uncounted.succeeded[p.UID]
		_, inFailed := jobCtx.uncounted.failed[p.UID]
		switch {
		case p.Status.Phase == corev1.PodSucceeded && !inSucceeded:
			succeeded = append(succeeded, p)
		case isPodFailed(p, jobCtx.job) && !inFailed:
			failed = append(failed, p)
		}
	}
	return succeeded, failed
}

// nonIgnoredFailedPodsCount counts the failed pods that the pod failure
// policy does not ignore.
func nonIgnoredFailedPodsCount(job *batchv1.Job, failed []*corev1.Pod) int32 {
	n := int32(len(failed))
	if job.Spec.PodFailurePolicy != nil {
		for _, p := range failed {
			if _, count, _ := matchPodFailurePolicy(job.Spec.PodFailurePolicy, p); !count {
				n--
			}
		}
	}
	return n
}

// pastBackoffLimitOnFailure reports, for restartPolicy OnFailure (where a
// failing container restarts in place and the pod never fails), whether
// the restarts of the running pods' containers reached backoffLimit.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (pastBackoffLimitOnFailure).
func pastBackoffLimitOnFailure(job *batchv1.Job, pods []*corev1.Pod) bool {
	if job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		return false
	}
	var restarts int32
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning && p.Status.Phase != corev1.PodPending {
			continue
		}
		for _, cs := range p.Status.InitContainerStatuses {
			restarts += cs.RestartCount
		}
		for _, cs := range p.Status.ContainerStatuses {
			restarts += cs.RestartCount
		}
	}
	if limit := backoffLimitOf(job); limit > 0 {
		return restarts >= limit
	}
	return restarts > 0
}

// pastActiveDeadline reports whether a running Job has been active for
// activeDeadlineSeconds.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.pastActiveDeadline).
func (c *Controller) pastActiveDeadline(job *batchv1.Job) bool {
	if job.Spec.ActiveDeadlineSeconds == nil || job.Status.StartTime == nil || jobSuspended(job) {
		return false
	}
	return c.clock.Since(job.Status.StartTime.Time) >= time.Duration(*job.Spec.ActiveDeadlineSeconds)*time.Second
}

func jobSuspended(job *batchv1.Job) bool {
	return job.Spec.Suspend != nil && *job.Spec.Suspend
}

// The spec's numbers as the API server defaults them; a Job written
// around defaulting (nil, negative) gets the default rather than a panic.
func backoffLimitOf(job *batchv1.Job) int32 {
	if l := job.Spec.BackoffLimit; l != nil && *l >= 0 {
		return *l
	}
	if job.Spec.BackoffLimitPerIndex != nil {
		return math.MaxInt32
	}
	return batchv1.DefaultBackoffLimit
}

func parallelismOf(job *batchv1.Job) int32 {
	if p := job.Spec.Parallelism; p != nil && *p >= 0 {
		return *p
	}
	return 1
}

func completionsOf(job *batchv1.Job) int32 {
	if c := job.Spec.Completions; c != nil && *c >= 0 {
		return *c
	}
	return 0
}

func int32PtrEqual(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
