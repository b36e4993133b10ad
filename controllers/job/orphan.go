package job

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/logging"
)

// orphanPodReconciler removes the tracking finalizer from pods that no
// sync of a running Job will count: pods without a controller (released,
// or whose Job the garbage collector orphaned), and pods whose Job is
// gone or finished. Without it such a pod could never be deleted. Its
// Requests name pods.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.orphanQueue,
// syncOrphanPod, cleanupPodFinalizers).
type orphanPodReconciler struct {
	c *Controller
}

var _ reconcile.Reconciler = (*orphanPodReconciler)(nil)

// Reconcile removes the finalizer of the pod req names if it is still an
// orphan.
func (o *orphanPodReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pod, err := o.c.pods.ByNamespace(req.Namespace).Get(req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if !o.isOrphan(pod) {
		return reconcile.Result{}, nil
	}
	patch := removeTrackingFinalizerPatch(pod)
	if patch == nil {
		return reconcile.Result{}, nil
	}
	_, err = o.c.cs.Pods(pod.Namespace).Patch(ctx, pod.Name, client.StrategicMergePatchType, patch, client.WriteOptions{})
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err == nil {
		logging.FromContext(ctx).DebugContext(ctx, "removed tracking finalizer of orphan pod", "pod", pod.Name)
	}
	return reconcile.Result{}, err
}

// isOrphan reports whether pod has the tracking finalizer and no running
// Job of the built-in controller to remove it. A pod controlled by
// something else than a batch/v1 Job is left alone, as is one of a Job
// another controller manages.
func (o *orphanPodReconciler) isOrphan(pod *corev1.Pod) bool {
	if !hasJobTrackingFinalizer(pod) {
		return false
	}
	ref := pod.ControllerRef()
	if ref == nil {
		return true
	}
	if ref.Kind != controllerKind.Kind || ref.APIVersion != controllerKind.GroupVersion().String() {
		return false
	}
	job := o.c.resolveControllerRef(pod.Namespace, ref)
	if job == nil {
		return true
	}
	return managedByExternalController(job) == nil && IsJobFinished(job)
}

// podHandler enqueues the pods that look orphaned; Reconcile checks again.
func (o *orphanPodReconciler) podHandler() handler.EventHandler {
	enqueue := func(pod *corev1.Pod, q handler.Queue) {
		if o.isOrphan(pod) {
			q.Add(requestFor(pod.Namespace, pod.Name))
		}
	}
	return handler.Funcs{
		CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
			if pod, ok := ev.Object.(*corev1.Pod); ok {
				enqueue(pod, q)
			}
		},
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			if pod, ok := ev.ObjectNew.(*corev1.Pod); ok {
				enqueue(pod, q)
			}
		},
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
			// A pod whose removal is seen has no finalizer left; a stale
			// delete (a relist) may be wrong, so look once more.
			if pod, ok := ev.Object.(*corev1.Pod); ok && ev.DeleteStateUnknown {
				enqueue(pod, q)
			}
		},
	}
}

// jobHandler enqueues the pods with a finalizer of a Job that finished or
// was deleted: no sync of it will remove their finalizers.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.cleanupPodFinalizers).
func (o *orphanPodReconciler) jobHandler() handler.EventHandler {
	return handler.Funcs{
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			if job, ok := ev.ObjectNew.(*batchv1.Job); ok && IsJobFinished(job) {
				o.enqueuePodsOf(job, q)
			}
		},
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
			if job, ok := ev.Object.(*batchv1.Job); ok {
				o.enqueuePodsOf(job, q)
			}
		},
	}
}

func (o *orphanPodReconciler) enqueuePodsOf(job *batchv1.Job, q handler.Queue) {
	selector, err := labels.FromLabelSelector(job.Spec.Selector)
	if err != nil || job.Spec.Selector == nil {
		return
	}
	pods, err := o.c.pods.ByNamespace(job.Namespace).List(selector)
	if err != nil {
		return
	}
	for _, pod := range pods {
		if ref := pod.ControllerRef(); ref != nil && ref.UID == job.UID && hasJobTrackingFinalizer(pod) {
			q.Add(requestFor(pod.Namespace, pod.Name))
		}
	}
}
