package deployment

import (
	"context"
	"fmt"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
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
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/deployment-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "deployment-controller"

// ControllerName is the controller's name: in --controllers, in its logs
// and as the source of its events.
const ControllerName = "deployment-controller"

// maxConcurrentReconciles is kube-controller-manager's default
// --concurrent-deployment-syncs: five Deployments sync at once, never one
// Deployment twice.
const maxConcurrentReconciles = 5

// controllerKind is the kind written into the ReplicaSets'
// ownerReferences.
var controllerKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

// Add sets the deployment controller up on mgr: it reconciles
// Deployments, is told of changes to the ReplicaSets they own (and to
// orphaned ones they could adopt), and of deleted pods, which a Recreate
// rollout waits for. It has the signature of controllermanager.AddFunc.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (NewDeploymentController).
func Add(mgr *manager.Manager) error {
	r, err := newReconciler(mgr)
	if err != nil {
		return fmt.Errorf("deployment: %w", err)
	}
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		For(&appsv1.Deployment{}).
		Owns(&appsv1.ReplicaSet{}).
		Watches(&appsv1.ReplicaSet{}, handler.EnqueueRequestsFromMapFunc(r.deploymentsForOrphan)).
		Watches(&corev1.Pod{}, handler.Funcs{DeleteFunc: r.deletePod}).
		WithOptions(controller.Options{MaxConcurrentReconciles: maxConcurrentReconciles}).
		Complete(r)
}

// reconciler rolls Deployments out: it is the Reconciler of the
// deployment controller. Its methods follow upstream's DeploymentController
// and keep their names. It reads the manager's cache and writes through
// the API server; it is safe for concurrent use (one Reconcile per
// Deployment at a time).
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController).
type reconciler struct {
	client      *client.Clientset
	deployments *informer.Lister[*appsv1.Deployment]
	replicaSets *informer.Lister[*appsv1.ReplicaSet]
	pods        *informer.Lister[*corev1.Pod]
	recorder    record.EventRecorder
	clock       clock.Clock
}

var _ reconcile.Reconciler = (*reconciler)(nil)

// newReconciler returns the reconciler over mgr's client, cache and clock.
func newReconciler(mgr *manager.Manager) (*reconciler, error) {
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, err
	}
	deployments, err := cache.ListerFor[*appsv1.Deployment](mgr.GetCache())
	if err != nil {
		return nil, err
	}
	replicaSets, err := cache.ListerFor[*appsv1.ReplicaSet](mgr.GetCache())
	if err != nil {
		return nil, err
	}
	pods, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	if err != nil {
		return nil, err
	}
	return &reconciler{
		client:      cs,
		deployments: deployments,
		replicaSets: replicaSets,
		pods:        pods,
		recorder:    mgr.GetEventRecorderFor(ControllerName),
		clock:       mgr.GetClock(),
	}, nil
}

// deploymentsForOrphan maps a ReplicaSet with no controller to the
// Deployments whose selector matches it, which may adopt it. Owned
// ReplicaSets reach their owner through Owns.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.getDeploymentsForReplicaSet).
func (r *reconciler) deploymentsForOrphan(_ context.Context, obj metav1.Object) []reconcile.Request {
	meta := obj.GetObjectMeta()
	if meta.ControllerRef() != nil || len(meta.Labels) == 0 {
		return nil
	}
	ds, err := r.deployments.ByNamespace(meta.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var reqs []reconcile.Request
	for _, d := range ds {
		sel, err := labels.FromLabelSelector(d.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(meta.Labels)) {
			continue
		}
		reqs = append(reqs, requestFor(&d.ObjectMeta))
	}
	return reqs
}

// deletePod enqueues the Deployment of a deleted pod's ReplicaSet if it
// rolls out with Recreate: that rollout waits for the old pods to be gone
// before it creates new ones.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment (DeploymentController.deletePod).
func (r *reconciler) deletePod(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
	meta := ev.Object.GetObjectMeta()
	ref := meta.ControllerRef()
	if ref == nil || ref.Kind != "ReplicaSet" {
		return
	}
	rs, err := r.replicaSets.Get(meta.Namespace, ref.Name)
	if err != nil || rs.UID != ref.UID {
		return
	}
	dref := rs.ControllerRef()
	if dref == nil || dref.Kind != controllerKind.Kind {
		return
	}
	d, err := r.deployments.Get(meta.Namespace, dref.Name)
	if err != nil || d.UID != dref.UID || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		return
	}
	q.Add(requestFor(&d.ObjectMeta))
}

// requestFor is the Request of the object meta.
func requestFor(meta *metav1.ObjectMeta) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: meta.Namespace, Name: meta.Name}}
}
