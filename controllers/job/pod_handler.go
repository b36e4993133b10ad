package job

import (
	"context"
	"maps"
	"reflect"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
)

// podHandler maps pod events to the Jobs to sync, and records on the way
// what the expectations wait for: a pod created or deleted by its Job, a
// tracking finalizer removed. It is why the controller watches pods with
// its own handler rather than builder.Owns: Owns only enqueues.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.addPod,
// updatePod, deletePod).
func (c *Controller) podHandler() handler.EventHandler {
	return handler.Funcs{
		CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
			if pod, ok := ev.Object.(*corev1.Pod); ok {
				c.addPod(pod, q)
			}
		},
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			oldPod, ok1 := ev.ObjectOld.(*corev1.Pod)
			newPod, ok2 := ev.ObjectNew.(*corev1.Pod)
			if ok1 && ok2 {
				c.updatePod(oldPod, newPod, q)
			}
		},
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
			if pod, ok := ev.Object.(*corev1.Pod); ok {
				c.deletePod(pod, true, q)
			}
		},
	}
}

// addPod observes the creation of a pod of a Job and syncs the Job; an
// orphan syncs every Job that might adopt it.
func (c *Controller) addPod(pod *corev1.Pod, q handler.Queue) {
	if pod.DeletionTimestamp != nil {
		// A restarted controller may first see a pod already being
		// deleted: that is no creation it waits for.
		c.deletePod(pod, false, q)
		return
	}
	if ref := pod.ControllerRef(); ref != nil {
		job := c.resolveControllerRef(pod.Namespace, ref)
		if job == nil {
			return
		}
		c.expectations.CreationObserved(jobKey(job))
		q.Add(requestFor(job.Namespace, job.Name))
		return
	}
	// An orphan: observe no creation, no controller waits for it.
	for _, job := range c.getPodJobs(pod) {
		q.Add(requestFor(job.Namespace, job.Name))
	}
}

// updatePod syncs the Jobs a pod's change concerns: its controller (old
// and new, if it changed), or for an orphan whose labels changed, the
// Jobs that might adopt it now.
func (c *Controller) updatePod(oldPod, curPod *corev1.Pod, q handler.Queue) {
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		// A periodic resync: two versions of a pod never share one.
		return
	}
	if curPod.DeletionTimestamp != nil {
		// A graceful delete sets the timestamp first and removes the pod
		// later: the Job may replace it now rather than then.
		c.deletePod(curPod, false, q)
		return
	}
	// Whether oldPod had the finalizer does not matter: several updates
	// folded into one event may have added and removed it again.
	finalizerRemoved := !hasJobTrackingFinalizer(curPod)
	curRef, oldRef := curPod.ControllerRef(), oldPod.ControllerRef()
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if job := c.resolveControllerRef(oldPod.Namespace, oldRef); job != nil {
			if finalizerRemoved {
				c.finalizerExpectations.finalizerRemovalObserved(jobKey(job), curPod.UID)
			}
			q.Add(requestFor(job.Namespace, job.Name))
		}
	}
	if curRef != nil {
		job := c.resolveControllerRef(curPod.Namespace, curRef)
		if job == nil {
			return
		}
		if finalizerRemoved {
			c.finalizerExpectations.finalizerRemovalObserved(jobKey(job), curPod.UID)
		}
		q.Add(requestFor(job.Namespace, job.Name))
		return
	}
	if refChanged || !maps.Equal(curPod.Labels, oldPod.Labels) {
		for _, job := range c.getPodJobs(curPod) {
			q.Add(requestFor(job.Namespace, job.Name))
		}
	}
}

// deletePod observes the deletion of a pod of a running Job and syncs the
// Job. final is true for the pod's removal, false for the deletionTimestamp
// being set; only the removal proves the finalizer gone.
func (c *Controller) deletePod(pod *corev1.Pod, final bool, q handler.Queue) {
	ref := pod.ControllerRef()
	if ref == nil {
		return // the orphan pod controller removes a finalizer left behind
	}
	job := c.resolveControllerRef(pod.Namespace, ref)
	if job == nil || IsJobFinished(job) {
		return // likewise: no sync of this Job will remove it
	}
	key := jobKey(job)
	c.expectations.DeletionObserved(key, pod.UID)
	if final || !hasJobTrackingFinalizer(pod) {
		c.finalizerExpectations.finalizerRemovalObserved(key, pod.UID)
	}
	q.Add(requestFor(job.Namespace, job.Name))
}

func requestFor(ns, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}}
}
