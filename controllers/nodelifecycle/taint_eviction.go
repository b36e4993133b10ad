package nodelifecycle

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
)

// TaintEvictionControllerName is the taint eviction controller's name,
// as kube-controller-manager's --controllers flag spells it; it is also
// the source of its events.
const TaintEvictionControllerName = "taint-eviction-controller"

// evictionWorkers is how many pods are handled at once: upstream's
// UpdateWorkerSize.
const evictionWorkers = 8

// addTaintEviction adds the taint eviction controller to mgr.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (startTaintEvictionController).
func addTaintEviction(mgr *manager.Manager, cs *client.Clientset, nodes *informer.Lister[*corev1.Node],
	podsOn func(string) []*corev1.Pod) error {
	pods, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	if err != nil {
		return fmt.Errorf("taint eviction: %w", err)
	}
	te := &TaintEviction{
		clientset: cs, clock: mgr.GetClock(), pods: pods, nodes: nodes, podsOnNode: podsOn,
		recorder:  mgr.GetEventRecorderFor(TaintEvictionControllerName),
		scheduled: map[reconcile.NamespacedName]scheduledEviction{},
	}
	err = builder.ControllerManagedBy(mgr).
		Named(TaintEvictionControllerName).
		Watches(&corev1.Pod{}, taintEvictionPodHandler()).
		Watches(&corev1.Node{}, te.nodeHandler()).
		WithOptions(controller.Options{MaxConcurrentReconciles: evictionWorkers}).
		Complete(te)
	if err != nil {
		return fmt.Errorf("taint eviction: %w", err)
	}
	return nil
}

// TaintEviction evicts (deletes) the pods of nodes with NoExecute taints
// they do not tolerate: at once, or, when every such taint is tolerated
// for a limited tolerationSeconds, once the shortest has passed since
// the taint was seen. A pod tolerating them all without limit stays. It
// reconciles pods; a node whose NoExecute taints change enqueues its
// pods. Add makes it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/tainteviction (Controller).
type TaintEviction struct {
	clientset  *client.Clientset
	clock      clock.Clock
	pods       *informer.Lister[*corev1.Pod]
	nodes      *informer.Lister[*corev1.Node]
	podsOnNode func(node string) []*corev1.Pod
	recorder   record.EventRecorder

	// mu guards scheduled: the pods due for eviction once their
	// tolerationSeconds have passed.
	mu        sync.Mutex
	scheduled map[reconcile.NamespacedName]scheduledEviction
}

// scheduledEviction is a pod's pending eviction.
type scheduledEviction struct {
	// node is the node whose taints it is for.
	node string
	// createdAt is when the pod was first seen on the tainted node: its
	// tolerationSeconds count from then.
	createdAt time.Time
}

var _ reconcile.Reconciler = (*TaintEviction)(nil)

// taintEvictionPodHandler enqueues a pod when it appears or goes, and when
// its node or tolerations change; other changes cannot change whether it
// is to be evicted.
//
// Upstream: k8s.io/kubernetes/pkg/controller/tainteviction
// (Controller.PodUpdated).
func taintEvictionPodHandler() handler.EventHandler {
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, ev event.CreateEvent, q handler.Queue) {
			handler.EnqueueRequestForObject{}.Create(ctx, ev, q)
		},
		UpdateFunc: func(ctx context.Context, ev event.UpdateEvent, q handler.Queue) {
			oldPod, okOld := ev.ObjectOld.(*corev1.Pod)
			newPod, okNew := ev.ObjectNew.(*corev1.Pod)
			if okOld && okNew && oldPod.Spec.NodeName == newPod.Spec.NodeName &&
				slices.EqualFunc(oldPod.Spec.Tolerations, newPod.Spec.Tolerations, tolerationEqual) {
				return
			}
			handler.EnqueueRequestForObject{}.Update(ctx, ev, q)
		},
		DeleteFunc: func(ctx context.Context, ev event.DeleteEvent, q handler.Queue) {
			handler.EnqueueRequestForObject{}.Delete(ctx, ev, q)
		},
	}
}

func tolerationEqual(a, b corev1.Toleration) bool {
	return a.Key == b.Key && a.Operator == b.Operator && a.Value == b.Value && a.Effect == b.Effect &&
		(a.TolerationSeconds == nil) == (b.TolerationSeconds == nil) &&
		(a.TolerationSeconds == nil || *a.TolerationSeconds == *b.TolerationSeconds)
}

// nodeHandler enqueues the pods of a node whose NoExecute taints appear,
// change or go.
//
// Upstream: k8s.io/kubernetes/pkg/controller/tainteviction
// (Controller.NodeUpdated, handleNodeUpdate).
func (te *TaintEviction) nodeHandler() handler.EventHandler {
	enqueuePods := func(node *corev1.Node, q handler.Queue) {
		for _, pod := range te.podsOnNode(node.Name) {
			q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}})
		}
	}
	return handler.Funcs{
		CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
			if node, ok := ev.Object.(*corev1.Node); ok && len(noExecuteTaints(node.Spec.Taints)) > 0 {
				enqueuePods(node, q)
			}
		},
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			oldNode, okOld := ev.ObjectOld.(*corev1.Node)
			newNode, okNew := ev.ObjectNew.(*corev1.Node)
			if okOld && okNew && !slices.EqualFunc(noExecuteTaints(oldNode.Spec.Taints), noExecuteTaints(newNode.Spec.Taints), taintEqual) {
				enqueuePods(newNode, q)
			}
		},
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
			if node, ok := ev.Object.(*corev1.Node); ok {
				enqueuePods(node, q)
			}
		},
	}
}

func taintEqual(a, b corev1.Taint) bool {
	return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect &&
		(a.TimeAdded == nil) == (b.TimeAdded == nil) && (a.TimeAdded == nil || a.TimeAdded.Equal(b.TimeAdded.Time))
}

// Reconcile implements reconcile.Reconciler: it evicts the pod named by
// req now, schedules its eviction (RequeueAfter), or cancels a scheduled
// one, as its node's NoExecute taints and its tolerations say.
//
// Upstream: k8s.io/kubernetes/pkg/controller/tainteviction
// (Controller.handlePodUpdate, processPodOnNode).
func (te *TaintEviction) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.NamespacedName
	pod, err := te.pods.Get(key.Namespace, key.Name)
	if apierrors.IsNotFound(err) {
		te.cancel(key, nil)
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if pod.Spec.NodeName == "" {
		te.cancel(key, pod)
		return reconcile.Result{}, nil
	}
	if pod.DeletionTimestamp != nil {
		// Being deleted already, by this controller or someone else.
		te.forget(key)
		return reconcile.Result{}, nil
	}
	node, err := te.nodes.Get("", pod.Spec.NodeName)
	if apierrors.IsNotFound(err) {
		te.cancel(key, pod)
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	taints := noExecuteTaints(node.Spec.Taints)
	if len(taints) == 0 {
		te.cancel(key, pod)
		return reconcile.Result{}, nil
	}
	now := te.clock.Now()
	tolerated, used := matchingTolerations(taints, pod.Spec.Tolerations)
	if !tolerated {
		return reconcile.Result{}, te.evict(ctx, pod)
	}
	wait := minTolerationTime(used)
	if wait < 0 {
		te.cancel(key, pod) // tolerated forever
		return reconcile.Result{}, nil
	}
	te.mu.Lock()
	s, ok := te.scheduled[key]
	if !ok || s.node != node.Name {
		s = scheduledEviction{node: node.Name, createdAt: now}
		te.scheduled[key] = s
	}
	te.mu.Unlock()
	if fireAt := s.createdAt.Add(wait); now.Before(fireAt) {
		return reconcile.Result{RequeueAfter: fireAt.Sub(now)}, nil
	}
	return reconcile.Result{}, te.evict(ctx, pod)
}

// cancel drops key's scheduled eviction, with an event about pod when
// there was one and the pod is still there.
func (te *TaintEviction) cancel(key reconcile.NamespacedName, pod *corev1.Pod) {
	if te.forget(key) && pod != nil {
		te.recorder.Eventf(podRef(pod), corev1.EventTypeNormal, "TaintManagerEviction",
			"Cancelling deletion of Pod %s", key)
	}
}

// forget drops key's scheduled eviction and reports whether it had one.
func (te *TaintEviction) forget(key reconcile.NamespacedName) bool {
	te.mu.Lock()
	defer te.mu.Unlock()
	_, ok := te.scheduled[key]
	delete(te.scheduled, key)
	return ok
}

// evict marks pod as a disruption target and deletes it (gracefully: its
// kubelet, if it runs, stops it).
//
// Upstream: k8s.io/kubernetes/pkg/controller/tainteviction
// (deletePodHandler, addConditionAndDeletePod).
func (te *TaintEviction) evict(ctx context.Context, pod *corev1.Pod) error {
	key := reconcile.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	logging.FromContext(ctx).InfoContext(ctx, "evicting pod from tainted node", "pod", key.String(), "node", pod.Spec.NodeName)
	te.recorder.Eventf(podRef(pod), corev1.EventTypeNormal, "TaintManagerEviction", "Marking for deletion Pod %s", key)
	if err := te.markDisruptionTarget(ctx, pod); err != nil {
		if apierrors.IsNotFound(err) {
			te.forget(key)
			return nil
		}
		return err
	}
	uid := pod.UID
	err := te.clientset.Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		// A conflict: the UID differs, the pod was replaced by another
		// of the same name, which is reconciled on its own.
		return fmt.Errorf("evict pod %s: %w", key, err)
	}
	te.forget(key)
	return nil
}

// markDisruptionTarget adds the DisruptionTarget condition to pod's
// status, saying why it is about to go; a conflict is retried on the pod
// read again.
func (te *TaintEviction) markDisruptionTarget(ctx context.Context, pod *corev1.Pod) error {
	reread := false
	return client.RetryOnConflict(ctx, nodeUpdateBackoff, func() error {
		if reread {
			fresh, err := te.clientset.Pods(pod.Namespace).Get(ctx, pod.Name, client.GetOptions{})
			if err != nil {
				return err
			}
			pod = fresh
		}
		reread = true
		if slices.ContainsFunc(pod.Status.Conditions, func(c corev1.PodCondition) bool {
			return c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue
		}) {
			return nil
		}
		update := pod.DeepCopy()
		cond := corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint",
			LastTransitionTime: metav1.NewTime(te.clock.Now())}
		if i := slices.IndexFunc(update.Status.Conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.DisruptionTarget }); i >= 0 {
			update.Status.Conditions[i] = cond
		} else {
			update.Status.Conditions = append(update.Status.Conditions, cond)
		}
		_, err := te.clientset.Pods(pod.Namespace).UpdateStatus(ctx, update, client.WriteOptions{})
		return err
	})
}
