package endpoints

import (
	"context"
	"maps"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// podHandler enqueues the Services a pod change may affect: those whose
// selector matches the pod. An update that changes the pod's labels
// enqueues the Services of its old labels too, so a pod that leaves a
// Service is removed from its Endpoints; an update that changes nothing
// the Endpoints show (and a resync) enqueues nothing.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint (addPod, updatePod,
// deletePod) and k8s.io/endpointslice/util (GetPodUpdateProjectionKey,
// GetServicesToUpdate).
func podHandler(services *informer.Lister[*corev1.Service]) handler.EventHandler {
	enqueue := func(q handler.Queue, reqs map[reconcile.Request]struct{}) {
		for req := range reqs {
			q.Add(req)
		}
	}
	return handler.Funcs{
		CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
			if pod, ok := ev.Object.(*corev1.Pod); ok {
				enqueue(q, servicesForPod(services, pod.Namespace, pod.Labels))
			}
		},
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			oldPod, okOld := ev.ObjectOld.(*corev1.Pod)
			newPod, okNew := ev.ObjectNew.(*corev1.Pod)
			if !okOld || !okNew || oldPod.ResourceVersion == newPod.ResourceVersion {
				return // a resync: the Services' own resync covers it
			}
			podChanged, labelsChanged := podEndpointsChanged(oldPod, newPod)
			if !podChanged && !labelsChanged {
				return
			}
			reqs := servicesForPod(services, newPod.Namespace, newPod.Labels)
			if labelsChanged {
				old := servicesForPod(services, oldPod.Namespace, oldPod.Labels)
				if podChanged {
					maps.Copy(reqs, old)
				} else {
					// Only the membership changed: the Services the pod
					// is in both before and after show it unchanged.
					reqs = symmetricDifference(reqs, old)
				}
			}
			enqueue(q, reqs)
		},
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
			if pod, ok := ev.Object.(*corev1.Pod); ok {
				enqueue(q, servicesForPod(services, pod.Namespace, pod.Labels))
			}
		},
	}
}

// servicesForPod returns the Requests of the Services in ns whose
// selector matches podLabels. A Service without a selector matches
// nothing, not everything.
func servicesForPod(services *informer.Lister[*corev1.Service], ns string, podLabels map[string]string) map[reconcile.Request]struct{} {
	reqs := map[reconcile.Request]struct{}{}
	list, err := services.ByNamespace(ns).List(nil)
	if err != nil {
		return reqs
	}
	for _, svc := range list {
		if len(svc.Spec.Selector) == 0 {
			continue
		}
		if labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(podLabels)) {
			reqs[reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}}] = struct{}{}
		}
	}
	return reqs
}

// podEndpointsChanged reports whether the update changed what the pod's
// endpoint looks like (its readiness, IPs, termination), and whether it
// changed which Services the pod may belong to (its labels, or the
// hostname and subdomain that name it in DNS).
//
// Upstream: k8s.io/endpointslice/util (podEndpointsChanged).
func podEndpointsChanged(oldPod, newPod *corev1.Pod) (podChanged, labelsChanged bool) {
	labelsChanged = !maps.Equal(oldPod.Labels, newPod.Labels) ||
		oldPod.Spec.Hostname != newPod.Spec.Hostname || oldPod.Spec.Subdomain != newPod.Spec.Subdomain
	switch {
	case !timePtrEqual(oldPod.DeletionTimestamp, newPod.DeletionTimestamp),
		isPodReady(oldPod) != isPodReady(newPod),
		oldPod.Status.PodIP != newPod.Status.PodIP,
		// A terminal phase takes the pod out of every Endpoints.
		oldPod.Status.Phase != newPod.Status.Phase && (isTerminal(oldPod) || isTerminal(newPod)):
		return true, labelsChanged
	}
	if len(oldPod.Status.PodIPs) != len(newPod.Status.PodIPs) {
		return true, labelsChanged
	}
	for i := range oldPod.Status.PodIPs {
		if oldPod.Status.PodIPs[i].IP != newPod.Status.PodIPs[i].IP {
			return true, labelsChanged
		}
	}
	// Name, namespace, UID and nodeName, which an address also shows,
	// never change once the pod has an IP.
	return false, labelsChanged
}

func isTerminal(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
}

func timePtrEqual(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b.Time)
}

// symmetricDifference returns the Requests in exactly one of a and b.
func symmetricDifference(a, b map[reconcile.Request]struct{}) map[reconcile.Request]struct{} {
	out := map[reconcile.Request]struct{}{}
	for k := range a {
		if _, ok := b[k]; !ok {
			out[k] = struct{}{}
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out[k] = struct{}{}
		}
	}
	return out
}
