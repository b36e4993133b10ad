package resourcequota

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/quota"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/resourcequota-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "resourcequota-controller"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "resourcequota-controller"

// SyncPeriod is how often every quota is recomputed even when nothing it
// watches changed: kube-controller-manager's --resource-quota-sync-period
// default, for the kinds it counts without watching them.
const SyncPeriod = 5 * time.Minute

// ResourceQuotaClient is the client of resourcequotas.
type ResourceQuotaClient = client.Resource[*corev1.ResourceQuota, *corev1.ResourceQuotaList]

// Add adds the resource quota controller to mgr: it reconciles a
// ResourceQuota when it appears or its spec changes, and the quotas of a
// namespace when a pod, Service, ConfigMap or Secret of it goes away or
// a pod finishes.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (startResourceQuotaController).
func Add(mgr *manager.Manager) error {
	r, err := New(mgr)
	if err != nil {
		return err
	}
	var self handler.EnqueueRequestForObject
	err = builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		Watches(&corev1.ResourceQuota{}, handler.Funcs{
			CreateFunc: self.Create,
			UpdateFunc: func(ctx context.Context, ev event.UpdateEvent, q handler.Queue) {
				if specChanged(ev.ObjectOld.(*corev1.ResourceQuota), ev.ObjectNew.(*corev1.ResourceQuota)) {
					self.Update(ctx, ev, q)
				}
			},
			GenericFunc: self.Generic,
		}).
		Watches(&corev1.Pod{}, r.replenish(podFinished)).
		Watches(&corev1.Service{}, r.replenish(nil)).
		Watches(&corev1.ConfigMap{}, r.replenish(nil)).
		Watches(&corev1.Secret{}, r.replenish(nil)).
		Complete(r)
	if err != nil {
		return fmt.Errorf("resourcequota: %w", err)
	}
	return nil
}

// Reconciler computes the status of one ResourceQuota. Make it with New;
// Add also registers it. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/resourcequota (Controller).
type Reconciler struct {
	quotas      *informer.Lister[*corev1.ResourceQuota]
	pods        *informer.Lister[*corev1.Pod]
	client      *client.Client
	quotaClient *ResourceQuotaClient
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// New returns the controller of mgr, reading through mgr's cache and
// client. It starts nothing.
func New(mgr *manager.Manager) (*Reconciler, error) {
	if mgr == nil {
		return nil, errors.New("resourcequota: nil manager")
	}
	quotas, err := cache.ListerFor[*corev1.ResourceQuota](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("resourcequota: %w", err)
	}
	pods, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("resourcequota: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("resourcequota: %w", err)
	}
	qc, err := client.NewResource[*corev1.ResourceQuota, *corev1.ResourceQuotaList](cl,
		corev1.SchemeGroupVersion.WithResource("resourcequotas"))
	if err != nil {
		return nil, fmt.Errorf("resourcequota: %w", err)
	}
	return &Reconciler{quotas: quotas, pods: pods, client: cl, quotaClient: qc}, nil
}

// specChanged reports whether a quota's update asks for a recompute: its
// bounds or scopes changed, or its status does not show its bounds yet.
// The other updates are writes of status.used, most of them the
// admission plugin's charges: a recompute then, from a cache that may
// not hold the object being charged for yet, would hand its charge back
// before the object is stored, and let another create past the bound.
func specChanged(old, cur *corev1.ResourceQuota) bool {
	return !quota.Equal(old.Spec.Hard, cur.Spec.Hard) ||
		!slices.Equal(old.Spec.Scopes, cur.Spec.Scopes) ||
		!reflect.DeepEqual(old.Spec.ScopeSelector, cur.Spec.ScopeSelector) ||
		!quota.Equal(cur.Status.Hard, cur.Spec.Hard)
}

// podFinished reports whether an update of a pod returns what it used: it
// reached Succeeded or Failed.
func podFinished(old, cur metav1.Object) bool {
	return !quota.IsTerminal(old.(*corev1.Pod)) && quota.IsTerminal(cur.(*corev1.Pod))
}

// replenish returns the handler of a kind quotas count: it enqueues every
// quota of an object's namespace when the object is deleted, or updated
// in a way that released says returns usage (nil: no update does).
// Creates enqueue nothing: the admission plugin charged for them, and a
// recompute from the cache, which may not hold the new object yet, would
// hand its charge back.
//
// Upstream: k8s.io/kubernetes/pkg/controller/resourcequota (QuotaMonitor,
// Controller.replenishQuota).
func (r *Reconciler) replenish(released func(old, cur metav1.Object) bool) handler.EventHandler {
	return handler.Funcs{
		UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) {
			if released != nil && released(ev.ObjectOld, ev.ObjectNew) {
				r.enqueueQuotasOf(ev.ObjectNew, q)
			}
		},
		DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) { r.enqueueQuotasOf(ev.Object, q) },
	}
}

// enqueueQuotasOf enqueues every quota of obj's namespace.
func (r *Reconciler) enqueueQuotasOf(obj metav1.Object, q handler.Queue) {
	ns := obj.GetObjectMeta().Namespace
	quotas, err := r.quotas.ByNamespace(ns).List(labels.Everything())
	if err != nil {
		return
	}
	for _, quota := range quotas {
		q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: quota.Name}})
	}
}

// Reconcile implements reconcile.Reconciler: it writes status.hard and
// status.used of the quota req names, when they changed, and asks to
// look again after SyncPeriod.
//
// Upstream: k8s.io/kubernetes/pkg/controller/resourcequota (Controller.syncResourceQuota).
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	q, err := r.quotas.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	used, err := r.usage(ctx, q)
	if err != nil {
		return reconcile.Result{}, err
	}
	if quota.Equal(q.Status.Hard, q.Spec.Hard) && quota.Equal(q.Status.Used, used) {
		return reconcile.Result{RequeueAfter: SyncPeriod}, nil
	}
	out := q.DeepCopy()
	out.Status = corev1.ResourceQuotaStatus{Hard: q.Spec.Hard, Used: used}
	if _, err := r.quotaClient.Namespace(q.Namespace).UpdateStatus(ctx, out, client.WriteOptions{}); err != nil {
		// A conflict is the admission plugin charging the quota: the
		// retry starts from its write.
		return reconcile.Result{}, err
	}
	return reconcile.Result{RequeueAfter: SyncPeriod}, nil
}

// usage returns what q's namespace uses of each resource of spec.hard. A
// scoped quota counts only the pods its scopes cover.
func (r *Reconciler) usage(ctx context.Context, q *corev1.ResourceQuota) (corev1.ResourceList, error) {
	used := corev1.ResourceList{}
	pods, err := r.pods.ByNamespace(q.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	for _, pod := range pods {
		if quota.HasScopes(q) && !quota.PodMatchesScopes(pod, q) {
			continue
		}
		used = quota.Add(used, quota.PodUsage(pod))
	}
	used = quota.Mask(used, q.Spec.Hard)
	for name := range q.Spec.Hard {
		if _, measured := used[name]; measured {
			continue
		}
		gr, isCount := quota.CountedResource(name)
		switch {
		case quota.HasScopes(q) || !isCount || gr == (runtime.GroupResource{Resource: "pods"}):
			// Nothing of it exists, or nothing a scoped quota counts.
			used[name] = resource.MustParse("0")
		default:
			n, err := r.count(ctx, q.Namespace, gr)
			if err != nil {
				return nil, fmt.Errorf("count %s: %w", gr, err)
			}
			used[name] = resource.NewQuantity(int64(n), resource.DecimalSI)
		}
	}
	return used, nil
}

// count returns how many objects of gr the namespace holds, listed at
// the group's preferred version. A resource the server does not serve
// counts 0.
func (r *Reconciler) count(ctx context.Context, ns string, gr runtime.GroupResource) (int, error) {
	version := "v1"
	if gr.Group != "" {
		groups, err := client.NewDiscoveryClient(r.client).ServerGroups(ctx)
		if err != nil {
			return 0, err
		}
		version = ""
		for _, g := range groups.Groups {
			if g.Name == gr.Group {
				version = g.PreferredVersion.Version
			}
		}
		if version == "" {
			return 0, nil
		}
	}
	res, err := client.NewDynamicResource(ctx, r.client, runtime.GroupVersionResource{Group: gr.Group, Version: version, Resource: gr.Resource})
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	list, err := res.Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(list.Items), nil
}
