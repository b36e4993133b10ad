package replicaset

import (
	"context"
	"maps"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
)

// replicaSetEventHandler enqueues every ReplicaSet that changes, and
// forgets the expectations of one that is deleted or replaced, so a new
// ReplicaSet of the same name starts clean.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (addRS, updateRS,
// deleteRS).
type replicaSetEventHandler struct{ r *Reconciler }

var _ handler.EventHandler = replicaSetEventHandler{}

// Create implements handler.EventHandler.
func (h replicaSetEventHandler) Create(_ context.Context, ev event.CreateEvent, q handler.Queue) {
	if rs, ok := ev.Object.(*appsv1.ReplicaSet); ok {
		q.Add(requestFor(rs))
	}
}

// Update implements handler.EventHandler. Every update is synced, not only
// a new spec: a resync then retries a ReplicaSet whose creates failed.
func (h replicaSetEventHandler) Update(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
	old, okOld := ev.ObjectOld.(*appsv1.ReplicaSet)
	cur, okCur := ev.ObjectNew.(*appsv1.ReplicaSet)
	if !okOld || !okCur {
		return
	}
	if old.UID != cur.UID {
		// Deleted and created again between two events of the watch.
		h.r.expectations.Delete(keyFor(old))
	}
	q.Add(requestFor(cur))
}

// Delete implements handler.EventHandler.
func (h replicaSetEventHandler) Delete(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
	if rs, ok := ev.Object.(*appsv1.ReplicaSet); ok {
		h.r.expectations.Delete(keyFor(rs))
		q.Add(requestFor(rs))
	}
}

// Generic implements handler.EventHandler.
func (h replicaSetEventHandler) Generic(_ context.Context, ev event.GenericEvent, q handler.Queue) {
	if rs, ok := ev.Object.(*appsv1.ReplicaSet); ok {
		q.Add(requestFor(rs))
	}
}

// podEventHandler turns pod changes into syncs of the ReplicaSets they
// concern, and observes the creations and deletions the expectations wait
// for:
//
//   - a pod with a controllerRef concerns only that ReplicaSet; its
//     appearance is a creation observed;
//   - an orphan concerns every ReplicaSet of its namespace whose selector
//     matches it, one of which may adopt it;
//   - a pod that gets a deletionTimestamp counts as deleted at once: the
//     ReplicaSet replaces it without waiting for the grace period, and the
//     final delete, observed by the same UID, does not count again;
//   - a pod whose controllerRef changes concerns the old controller too.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (addPod,
// updatePod, deletePod).
type podEventHandler struct{ r *Reconciler }

var _ handler.EventHandler = podEventHandler{}

// Create implements handler.EventHandler.
func (h podEventHandler) Create(_ context.Context, ev event.CreateEvent, q handler.Queue) {
	pod, ok := ev.Object.(*corev1.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		// Seen for the first time already being deleted (after a restart
		// or a relist): that is no creation to observe.
		h.deleted(pod, q)
		return
	}
	if ref := pod.ControllerRef(); ref != nil {
		if rs := h.r.resolveControllerRef(pod.Namespace, ref); rs != nil {
			h.r.expectations.CreationObserved(keyFor(rs))
			q.Add(requestFor(rs))
		}
		return
	}
	// An orphan: no ReplicaSet waits for its creation.
	for _, rs := range h.r.podReplicaSets(pod) {
		q.Add(requestFor(rs))
	}
}

// Update implements handler.EventHandler.
func (h podEventHandler) Update(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
	old, okOld := ev.ObjectOld.(*corev1.Pod)
	cur, okCur := ev.ObjectNew.(*corev1.Pod)
	if !okOld || !okCur || cur.ResourceVersion == old.ResourceVersion {
		// A periodic resync: two versions of a pod always differ in
		// resourceVersion, and the ReplicaSets get their own resync.
		return
	}
	labelsChanged := !maps.Equal(old.Labels, cur.Labels)
	if cur.DeletionTimestamp != nil {
		h.deleted(cur, q)
		if labelsChanged {
			// The old labels may have belonged to another controller's
			// selector; a deletionTimestamp is never unset, so old had none.
			h.deleted(old, q)
		}
		return
	}
	curRef, oldRef := cur.ControllerRef(), old.ControllerRef()
	refChanged := !equalOwnerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := h.r.resolveControllerRef(old.Namespace, oldRef); rs != nil {
			q.Add(requestFor(rs))
		}
	}
	if curRef != nil {
		// Readiness changes land here too; the sync works out when the pod
		// becomes available (nextAvailabilityCheck).
		if rs := h.r.resolveControllerRef(cur.Namespace, curRef); rs != nil {
			q.Add(requestFor(rs))
		}
		return
	}
	if labelsChanged || refChanged {
		for _, rs := range h.r.podReplicaSets(cur) {
			q.Add(requestFor(rs))
		}
	}
}

// Delete implements handler.EventHandler. The object may be the last state
// known before a relist, and so stale; its controllerRef still names the
// ReplicaSet that waits for it.
func (h podEventHandler) Delete(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
	if pod, ok := ev.Object.(*corev1.Pod); ok {
		h.deleted(pod, q)
	}
}

// Generic implements handler.EventHandler: pods have no generic events.
func (h podEventHandler) Generic(context.Context, event.GenericEvent, handler.Queue) {}

// deleted observes the deletion of pod for its controller and enqueues
// it. Nobody waits for the deletion of an orphan.
func (h podEventHandler) deleted(pod *corev1.Pod, q handler.Queue) {
	ref := pod.ControllerRef()
	if ref == nil {
		return
	}
	rs := h.r.resolveControllerRef(pod.Namespace, ref)
	if rs == nil {
		return
	}
	h.r.expectations.DeletionObserved(keyFor(rs), pod.UID)
	q.Add(requestFor(rs))
}

// resolveControllerRef returns the cached ReplicaSet ref names in ns, or
// nil when ref is not to a ReplicaSet or names one that is gone or was
// replaced (another UID).
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (ReplicaSetController.resolveControllerRef).
func (r *Reconciler) resolveControllerRef(ns string, ref *metav1.OwnerReference) *appsv1.ReplicaSet {
	if ref.Kind != replicaSetKind.Kind || runtime.ParseGroupVersion(ref.APIVersion).Group != replicaSetKind.Group {
		return nil
	}
	rs, err := r.rsLister.Get(ns, ref.Name)
	if err != nil || rs.UID != ref.UID {
		return nil
	}
	return rs
}

// podReplicaSets returns the cached ReplicaSets of pod's namespace whose
// selector matches it. A ReplicaSet with an empty or invalid selector
// matches nothing here, never everything. More than one is a user error,
// which the controllerRef keeps harmless: the first to claim the pod wins.
//
// Upstream: k8s.io/client-go/listers/apps/v1 (GetPodReplicaSets).
func (r *Reconciler) podReplicaSets(pod *corev1.Pod) []*appsv1.ReplicaSet {
	if len(pod.Labels) == 0 {
		return nil
	}
	rss, err := r.rsLister.ByNamespace(pod.Namespace).List(nil)
	if err != nil {
		return nil
	}
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		selector, err := labels.FromLabelSelector(rs.Spec.Selector)
		if err != nil || selector.Empty() || !selector.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, rs)
	}
	return out
}

// equalOwnerRef reports whether a and b are both nil or the same
// reference.
func equalOwnerRef(a, b *metav1.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		equalPtr(a.Controller, b.Controller) && equalPtr(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}
