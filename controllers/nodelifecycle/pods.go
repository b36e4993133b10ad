package nodelifecycle

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// podNodeIndex indexes the manager's pods by the node they are bound to.
// The name is this package's, so it cannot clash with another
// controller's index of the same field on the shared informer.
const podNodeIndex = "nodelifecycle/spec.nodeName"

// podsOnNode returns a function listing the cached pods bound to a node,
// adding the index to the pod informer of c unless it has it.
func podsOnNode(c *cache.Cache) (func(node string) []*corev1.Pod, error) {
	inf, err := c.GetInformer(&corev1.Pod{})
	if err != nil {
		return nil, err
	}
	idx := inf.Indexer()
	if _, err := idx.ByIndex(podNodeIndex, ""); err != nil {
		err := inf.AddIndexers(informer.Indexers{podNodeIndex: func(obj runtime.Object) ([]string, error) {
			pod, ok := obj.(*corev1.Pod)
			if !ok || pod.Spec.NodeName == "" {
				return nil, nil
			}
			return []string{pod.Spec.NodeName}, nil
		}})
		if err != nil {
			return nil, err
		}
	}
	return func(node string) []*corev1.Pod {
		objs, err := idx.ByIndex(podNodeIndex, node)
		if err != nil {
			return nil
		}
		pods := make([]*corev1.Pod, 0, len(objs))
		for _, obj := range objs {
			if pod, ok := obj.(*corev1.Pod); ok {
				pods = append(pods, pod)
			}
		}
		return pods
	}, nil
}

// nodeRequest is the Request of the node called name.
func nodeRequest(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Name: name}}
}

// podAssignedHandler enqueues a pod's node when the pod is bound to it,
// and remembers the pod: a pod bound to a node that is not ready is
// marked not ready at once.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.podUpdated, processPod).
func (nc *Controller) podAssignedHandler() handler.EventHandler {
	assigned := func(pod *corev1.Pod, q handler.Queue) {
		nc.mu.Lock()
		set := nc.podsToCheck[pod.Spec.NodeName]
		if set == nil {
			set = map[reconcile.NamespacedName]struct{}{}
			nc.podsToCheck[pod.Spec.NodeName] = set
		}
		set[reconcile.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}] = struct{}{}
		nc.mu.Unlock()
		q.Add(nodeRequest(pod.Spec.NodeName))
	}
	return handler.Funcs{
		CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
			if pod, ok := ev.Object.(*corev1.Pod); ok && pod.Spec.NodeName != "" {
				assigned(pod, q)
			}
		},
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			oldPod, okOld := ev.ObjectOld.(*corev1.Pod)
			newPod, okNew := ev.ObjectNew.(*corev1.Pod)
			if okOld && okNew && newPod.Spec.NodeName != "" && newPod.Spec.NodeName != oldPod.Spec.NodeName {
				assigned(newPod, q)
			}
		},
	}
}

// leaseHandler enqueues the node of a Lease in kube-node-lease: a
// renewal is a heartbeat.
func leaseHandler() handler.EventHandler {
	enqueue := func(obj metav1.Object, q handler.Queue) {
		if obj == nil {
			return
		}
		if meta := obj.GetObjectMeta(); meta.Namespace == metav1.NamespaceNodeLease {
			q.Add(nodeRequest(meta.Name))
		}
	}
	return handler.Funcs{
		CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) { enqueue(ev.Object, q) },
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) { enqueue(ev.ObjectNew, q) },
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) { enqueue(ev.Object, q) },
	}
}

// markPodsNotReady sets the Ready condition of pods bound to node to
// False, as their node is not ready: the endpoints controller then takes
// them out of Services. Pods already gone are skipped; the other
// failures are returned, joined.
//
// Upstream: k8s.io/kubernetes/pkg/controller/util/node (MarkPodsNotReady).
func (nc *Controller) markPodsNotReady(ctx context.Context, pods []*corev1.Pod, node string) error {
	var errs []error
	for _, pod := range pods {
		if pod.Spec.NodeName != node {
			continue
		}
		err := nc.markPodNotReady(ctx, pod)
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// markPodNotReady sets pod's Ready condition False, if it has one that is
// not, through pods/status; a conflict is retried on the pod read again.
func (nc *Controller) markPodNotReady(ctx context.Context, pod *corev1.Pod) error {
	reread := false
	return client.RetryOnConflict(ctx, nodeUpdateBackoff, func() error {
		if reread {
			fresh, err := nc.clientset.Pods(pod.Namespace).Get(ctx, pod.Name, client.GetOptions{})
			if err != nil {
				return fmt.Errorf("get pod: %w", err)
			}
			pod = fresh
		}
		reread = true
		i := podReadyIndex(pod)
		if i < 0 || pod.Status.Conditions[i].Status == corev1.ConditionFalse {
			return nil
		}
		update := pod.DeepCopy()
		c := &update.Status.Conditions[i]
		c.Status = corev1.ConditionFalse
		c.LastTransitionTime = metav1.NewTime(nc.clock.Now())
		if _, err := nc.clientset.Pods(pod.Namespace).UpdateStatus(ctx, update, client.WriteOptions{}); err != nil {
			return fmt.Errorf("mark pod %s/%s not ready: %w", pod.Namespace, pod.Name, err)
		}
		// Recorded after the write, so the pod still existed.
		nc.recorder.Event(podRef(pod), corev1.EventTypeWarning, "NodeNotReady", "Node is not ready")
		return nil
	})
}

func podReadyIndex(pod *corev1.Pod) int {
	for i, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return i
		}
	}
	return -1
}

// podRef is the reference of an event about pod: cached objects have no
// kind.
func podRef(pod *corev1.Pod) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, ResourceVersion: pod.ResourceVersion},
	}
}

// nodeRef is the reference of an event about the node called name.
func nodeRef(name, uid string) *corev1.Node {
	return &corev1.Node{
		TypeMeta:   metav1.TypeMeta{Kind: "Node", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: uid},
	}
}
