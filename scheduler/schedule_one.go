package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/internal/queue"
	"github.com/minicp/minicp/tracing"
)

// podReasonSchedulerError is the PodScheduled=False reason when scheduling
// failed for another cause than a rejection (a failed binding).
//
// Upstream: k8s.io/api/core/v1 (PodReasonSchedulerError).
const podReasonSchedulerError = "SchedulerError"

// maxBindingsInFlight bounds the binding cycles running at once. Each is
// an API request; a backlog of a thousand pods would otherwise send a
// thousand at once and be refused with 429s by the API server's in-flight
// limit (400 by default). Upstream gets the same bound from its client's
// QPS limit. 32 keeps an API server on a local etcd busy: a binding takes
// about a millisecond, so this allows tens of thousands a second.
const maxBindingsInFlight = 32

// noteLengthLimit caps the message of an event, as the events API does;
// upstream truncates FailedScheduling messages of huge clusters to it.
const noteLengthLimit = 1024

// scheduleOne runs one scheduling cycle: it pops a pod, filters and scores
// the nodes of a fresh snapshot, assumes the pod on the chosen node and
// starts the binding cycle in the background. On failure it requeues the
// pod and records why. It returns when the cycle is done (or ctx ended
// while it waited for a pod).
//
// Upstream: schedule_one.go (ScheduleOne, schedulingCycle).
func (s *Scheduler) scheduleOne(ctx context.Context) {
	pInfo, err := s.queue.Pop(ctx)
	if err != nil {
		return
	}
	pod := pInfo.Pod
	prof, ok := s.profiles[pod.Spec.SchedulerName]
	if !ok || s.skipPodSchedule(pod) {
		s.queue.Done(pInfo)
		return
	}

	ctx, span := s.startCycleSpan(ctx, pod)
	defer span.End()
	s.cache.UpdateSnapshot(s.snapshot)
	result, err := prof.framework.SchedulePod(ctx, pod, s.snapshot.List(), s.rand)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
		s.handleSchedulingFailure(ctx, prof, pInfo, err)
		return
	}
	span.SetAttributes(tracing.KeyNode.String(result.SuggestedHost))
	// The binding goroutine and the cache keep the assumed copy: pod is
	// the informer's and must not change.
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = result.SuggestedHost
	if err := s.cache.AssumePod(assumed); err != nil {
		s.handleSchedulingFailure(ctx, prof, pInfo, fmt.Errorf("assume pod: %w", err))
		return
	}
	// Wait for a binding slot. The pod is assumed meanwhile, so no later
	// cycle can give its room away.
	select {
	case s.bindingSlots <- struct{}{}:
	case <-ctx.Done():
		_ = s.cache.ForgetPod(assumed)
		s.queue.Done(pInfo)
		return
	}
	s.wg.Go(func() {
		defer func() { <-s.bindingSlots }()
		s.bindingCycle(ctx, prof, pInfo, assumed)
	})
}

// skipPodSchedule reports whether a popped pod needs no cycle: it is being
// deleted, or the cache has it assumed already (an earlier attempt is
// still binding; the queue guards against that, this is the net behind).
//
// Upstream: Scheduler.skipPodSchedule.
func (s *Scheduler) skipPodSchedule(pod *corev1.Pod) bool {
	return pod.DeletionTimestamp != nil || s.cache.IsAssumedPod(pod)
}

// bindingCycle binds the assumed pod, then records the Scheduled event. A
// binding that fails forgets the assumption (freeing the node's resources
// for the pods waiting on them) and, unless the pod is already bound or
// gone, requeues the pod with backoff.
//
// Upstream: schedule_one.go (bindingCycle, handleBindingCycleError).
func (s *Scheduler) bindingCycle(ctx context.Context, prof *profile, pInfo *queue.QueuedPodInfo, assumed *corev1.Pod) {
	node := assumed.Spec.NodeName
	ctx, span := tracing.TracerFrom(ctx, "scheduler").Start(ctx, tracing.HopSchedulerBind,
		trace.WithAttributes(tracing.KeyNamespace.String(assumed.Namespace), tracing.KeyName.String(assumed.Name), tracing.KeyNode.String(node)))
	defer span.End()
	err := s.bind(ctx, assumed)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	if err == nil {
		s.logger.Debug("bound", "hop", "scheduler.bind", "namespace", assumed.Namespace, "pod", assumed.Name,
			"uid", string(assumed.UID), "node", node)
		s.metrics.attempt(resultScheduled, prof.framework.ProfileName())
		prof.recorder.Eventf(withTypeMeta(assumed), corev1.EventTypeNormal, "Scheduled",
			"Successfully assigned %v/%v to %v", assumed.Namespace, assumed.Name, node)
		s.queue.Done(pInfo)
		return
	}
	if ferr := s.cache.ForgetPod(assumed); ferr == nil {
		// The assumed pod held resources: forgetting it is, for the pods
		// waiting on them, the delete of a bound pod.
		s.queue.MoveAllToActiveOrBackoffQueue(queue.AssignedPodDelete)
	}
	switch {
	case ctx.Err() != nil:
		s.queue.Done(pInfo)
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		// Already bound (by another scheduler), being deleted, or gone:
		// nothing to retry. The informer brings the pod's real state.
		s.logger.Debug("binding dropped", "namespace", assumed.Namespace, "pod", assumed.Name, "node", node, "err", err)
		s.queue.Done(pInfo)
	default:
		s.handleSchedulingFailure(ctx, prof, pInfo, fmt.Errorf("binding rejected: %w", err))
	}
}

// bind POSTs the pod's Binding to pods/{name}/binding. The Binding carries
// the pod's UID, so a pod deleted and created again under the same name
// is not bound by mistake (the API server answers 409).
//
// Upstream: plugins/defaultbinder (DefaultBinder.Bind).
func (s *Scheduler) bind(ctx context.Context, pod *corev1.Pod) error {
	binding := &corev1.Binding{
		TypeMeta:   metav1.TypeMeta{Kind: "Binding", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: pod.Spec.NodeName},
	}
	return s.cs.Pods(pod.Namespace).CreateSubresource(ctx, pod.Name, "binding", binding, nil, client.WriteOptions{})
}

// handleSchedulingFailure requeues a pod whose cycle failed and tells the
// user why: a FailedScheduling event and the PodScheduled condition. A
// FitError makes the pod unschedulable until an event its rejecting
// plugins care about; any other error sends it to backoff. A pod that was
// deleted, replaced or bound meanwhile is not requeued. It calls Done.
//
// Upstream: schedule_one.go (handleSchedulingFailure).
func (s *Scheduler) handleSchedulingFailure(ctx context.Context, prof *profile, pInfo *queue.QueuedPodInfo, err error) {
	defer s.queue.Done(pInfo)
	if ctx.Err() != nil {
		// Shutting down: the failure is ctx's, not the pod's.
		return
	}
	pod := pInfo.Pod
	reason := podReasonSchedulerError
	var fitErr *framework.FitError
	switch {
	case errors.As(err, &fitErr):
		reason = corev1.PodReasonUnschedulable
		pInfo.UnschedulablePlugins = fitErr.Diagnosis.UnschedulablePlugins
		s.logger.Debug("unschedulable", "namespace", pod.Namespace, "pod", pod.Name, "err", err)
	case errors.Is(err, framework.ErrNoNodesAvailable):
		// Upstream makes "no nodes" a rejection by no plugin: any event
		// (a node added) retries it, and so does the backoff.
		reason = corev1.PodReasonUnschedulable
		pInfo.UnschedulablePlugins = nil
		s.logger.Debug("no nodes to schedule on", "namespace", pod.Namespace, "pod", pod.Name)
	default:
		pInfo.UnschedulablePlugins = nil
		s.logger.Warn("scheduling failed, retrying after backoff", "namespace", pod.Namespace, "pod", pod.Name, "err", err)
	}
	if reason == corev1.PodReasonUnschedulable {
		s.metrics.attempt(resultUnschedulable, prof.framework.ProfileName())
	} else {
		s.metrics.attempt(resultError, prof.framework.ProfileName())
	}

	// Requeue the informer's latest state of the pod, unless it is gone,
	// replaced, or bound meanwhile (a binding that timed out on our side
	// may have succeeded).
	latest := pod
	cached, lerr := s.podLister.Get(pod.Namespace, pod.Name)
	switch {
	case lerr != nil || cached.UID != pod.UID:
		s.logger.Debug("pod gone, not requeued", "namespace", pod.Namespace, "pod", pod.Name)
	case cached.Spec.NodeName != "":
		s.logger.Debug("pod bound meanwhile, not requeued", "namespace", pod.Namespace, "pod", pod.Name, "node", cached.Spec.NodeName)
	default:
		latest = cached
		pInfo.Pod = cached
		// From here pInfo is the queue's again: read it no more.
		if qerr := s.queue.AddUnschedulableIfNotPresent(pInfo); qerr != nil {
			// Queued again meanwhile: that entry will do.
			s.logger.Debug("pod not requeued", "namespace", pod.Namespace, "pod", pod.Name, "err", qerr)
		}
	}

	msg := truncateMessage(err.Error())
	prof.recorder.Event(withTypeMeta(pod), corev1.EventTypeWarning, "FailedScheduling", msg)
	if uerr := s.updatePodScheduledCondition(ctx, latest, reason, msg); uerr != nil && ctx.Err() == nil {
		s.logger.Warn("PodScheduled condition not updated", "namespace", pod.Namespace, "pod", pod.Name, "err", uerr)
	}
}

// updatePodScheduledCondition sets the pod's PodScheduled condition to
// False with reason and message, through pods/{name}/status, unless it
// says so already (a pod failing the same way again costs no write). A
// conflict re-reads the pod and retries; a pod that is gone, replaced or
// bound meanwhile is left alone.
//
// Upstream: schedule_one.go (updatePod), which sends a strategic merge
// patch; an update with retry is as safe without one.
func (s *Scheduler) updatePodScheduledCondition(ctx context.Context, pod *corev1.Pod, reason, message string) error {
	pods := s.cs.Pods(pod.Namespace)
	cur, first := pod, true
	// DefaultRetry waits on the real clock: a conflict is a race with
	// another writer, which a fake clock would never let end.
	return client.RetryOnConflict(ctx, client.DefaultRetry, func() error {
		if !first {
			fresh, err := pods.Get(ctx, pod.Name, client.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				return nil
			case err != nil:
				return err
			case fresh.UID != pod.UID || fresh.Spec.NodeName != "":
				return nil
			}
			cur = fresh
		}
		first = false
		updated := cur.DeepCopy()
		if !setPodScheduledFalse(&updated.Status, reason, message, s.clock.Now()) {
			return nil
		}
		_, err := pods.UpdateStatus(ctx, updated, client.WriteOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	})
}

// setPodScheduledFalse sets the PodScheduled condition of status to False
// with reason and message, and reports whether that changed anything. The
// transition time moves only when the status does.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (UpdatePodCondition).
func setPodScheduledFalse(status *corev1.PodStatus, reason, message string, now time.Time) bool {
	cond := corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: reason, Message: message,
		LastTransitionTime: metav1.NewTime(now)}
	for i := range status.Conditions {
		old := &status.Conditions[i]
		if old.Type != corev1.PodScheduled {
			continue
		}
		if old.Status == cond.Status {
			if old.Reason == cond.Reason && old.Message == cond.Message {
				return false
			}
			cond.LastTransitionTime = old.LastTransitionTime
		}
		*old = cond
		return true
	}
	status.Conditions = append(status.Conditions, cond)
	return true
}

// truncateMessage shortens message to noteLengthLimit, marking the cut.
//
// Upstream: schedule_one.go (truncateMessage).
func truncateMessage(message string) string {
	if len(message) <= noteLengthLimit {
		return message
	}
	const suffix = " ..."
	return message[:noteLengthLimit-len(suffix)] + suffix
}

// withTypeMeta returns pod with its kind and apiVersion set, which
// objects decoded from a LIST lack: an event's involvedObject needs them
// (kubectl describe selects events by involvedObject.kind).
func withTypeMeta(pod *corev1.Pod) *corev1.Pod {
	if pod.Kind != "" {
		return pod
	}
	c := *pod // shallow: only TypeMeta differs, and nothing is modified
	c.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
	return &c
}

// startCycleSpan starts the span of pod's scheduling cycle: a trace of
// its own, linked to the traced write of the pod's version being
// scheduled; a no-op span when that write was not traced.
func (s *Scheduler) startCycleSpan(ctx context.Context, pod *corev1.Pod) (context.Context, trace.Span) {
	rev, _ := strconv.ParseInt(pod.ResourceVersion, 10, 64)
	link, ok := s.revisions.Link(rev)
	if !ok {
		return ctx, trace.SpanFromContext(context.Background()) // a no-op span
	}
	return s.tracer.Start(ctx, tracing.HopSchedulerCycle, trace.WithNewRoot(), trace.WithLinks(link),
		trace.WithAttributes(tracing.KeyNamespace.String(pod.Namespace), tracing.KeyName.String(pod.Name)))
}
