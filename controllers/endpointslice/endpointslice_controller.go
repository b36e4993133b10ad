package endpointslice

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/endpoints"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/endpointslice-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "endpointslice-controller"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "endpointslice-controller"

// ManagedBy is the value of the managed-by label on the slices this
// controller writes; slices with another value are someone else's.
const ManagedBy = "endpointslice-controller.k8s.io"

// MaxEndpointsPerSlice is how many endpoints a slice gets at most:
// upstream's --max-endpoints-per-slice default, small enough that one
// pod's change rewrites a small object.
const MaxEndpointsPerSlice = 100

// concurrentSyncs is how many Services are synced at once: upstream's
// --concurrent-service-endpoint-syncs default.
const concurrentSyncs = 5

// Add adds the EndpointSlice controller to mgr: it reconciles Services,
// watching the pods they select and the slices it writes.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (startEndpointSliceController).
func Add(mgr *manager.Manager) error {
	c := mgr.GetCache()
	services, err := cache.ListerFor[*corev1.Service](c)
	if err != nil {
		return fmt.Errorf("endpointslice: %w", err)
	}
	pods, err := cache.ListerFor[*corev1.Pod](c)
	if err != nil {
		return fmt.Errorf("endpointslice: %w", err)
	}
	slices, err := cache.ListerFor[*discoveryv1.EndpointSlice](c)
	if err != nil {
		return fmt.Errorf("endpointslice: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("endpointslice: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("endpointslice: %w", err)
	}
	r := &Reconciler{clientset: cs, services: services, pods: pods, slices: slices, tracker: newSliceTracker()}
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		For(&corev1.Service{}).
		Watches(&corev1.Pod{}, endpoints.PodHandler(services)).
		// A slice of ours changed or deleted by someone else is written
		// again; our own writes come back here too, harmlessly.
		Watches(&discoveryv1.EndpointSlice{}, handler.EnqueueRequestsFromMapFunc(serviceOfSlice)).
		WithOptions(controller.Options{MaxConcurrentReconciles: concurrentSyncs}).
		Complete(r)
}

// serviceOfSlice maps a slice this controller manages to its Service.
func serviceOfSlice(_ context.Context, obj metav1.Object) []reconcile.Request {
	meta := obj.GetObjectMeta()
	name := meta.Labels[discoveryv1.LabelServiceName]
	if name == "" || meta.Labels[discoveryv1.LabelManagedBy] != ManagedBy {
		return nil
	}
	return []reconcile.Request{{NamespacedName: reconcile.NamespacedName{Namespace: meta.Namespace, Name: name}}}
}

// Reconciler syncs one Service's EndpointSlices. Make it with Add.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpointslice (Controller).
type Reconciler struct {
	clientset *client.Clientset
	services  *informer.Lister[*corev1.Service]
	pods      *informer.Lister[*corev1.Pod]
	slices    *informer.Lister[*discoveryv1.EndpointSlice]
	tracker   *sliceTracker
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// Reconcile implements reconcile.Reconciler: it makes the slices of the
// Service named by req list its endpoints, or deletes them when the
// Service is gone or is an ExternalName.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpointslice (Controller.syncService).
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.NamespacedName
	svc, err := r.services.Get(key.Namespace, key.Name)
	if err != nil && !apierrors.IsNotFound(err) {
		return reconcile.Result{}, err
	}
	if err == nil && len(svc.Spec.Selector) == 0 && svc.Spec.Type != corev1.ServiceTypeExternalName {
		// A Service without a selector gets its endpoints from someone
		// else, as upstream leaves it.
		return reconcile.Result{}, nil
	}
	existing, err := r.currentSlices(ctx, key)
	if err != nil {
		return reconcile.Result{}, err
	}
	if svc == nil || svc.Spec.Type == corev1.ServiceTypeExternalName {
		if svc == nil {
			defer r.tracker.forget(key)
		}
		return reconcile.Result{}, r.apply(ctx, key, plan{delete: existing})
	}
	pods, err := r.pods.ByNamespace(svc.Namespace).List(labels.SelectorFromSet(svc.Spec.Selector))
	if err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.apply(ctx, key, reconcileSlices(svc, existing, desiredGroups(svc, pods)))
}

// currentSlices returns the slices this controller manages for key:
// from the cache, or from the API server when the cache has not caught
// up with this controller's own writes (it would make a duplicate slice,
// or conflict).
func (r *Reconciler) currentSlices(ctx context.Context, key reconcile.NamespacedName) ([]*discoveryv1.EndpointSlice, error) {
	sel := labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: key.Name, discoveryv1.LabelManagedBy: ManagedBy})
	cached, err := r.slices.ByNamespace(key.Namespace).List(sel)
	if err != nil {
		return nil, err
	}
	if r.tracker.caughtUp(key, cached) {
		return cached, nil
	}
	list, err := r.clientset.EndpointSlices(key.Namespace).List(ctx, client.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, fmt.Errorf("list endpointslices of %s: %w", key, err)
	}
	out := make([]*discoveryv1.EndpointSlice, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

// apply writes p: creates first, so that readers never see a Service
// with fewer endpoints than before in between, then updates, then
// deletes. Each write is recorded in the tracker.
func (r *Reconciler) apply(ctx context.Context, key reconcile.NamespacedName, p plan) error {
	log := logging.FromContext(ctx)
	slices := r.clientset.EndpointSlices(key.Namespace)
	for _, s := range p.create {
		created, err := slices.Create(ctx, s, client.WriteOptions{})
		if err != nil {
			if apierrors.IsForbidden(err) {
				return nil // the namespace is going away: nothing can be created there
			}
			return fmt.Errorf("create endpointslice for %s: %w", key, err)
		}
		r.tracker.wrote(key, created)
		log.DebugContext(ctx, "endpointslice created", "name", created.Name, "endpoints", len(created.Endpoints))
	}
	for _, s := range p.update {
		updated, err := slices.Update(ctx, s, client.WriteOptions{})
		if err != nil {
			return fmt.Errorf("update endpointslice %s/%s: %w", s.Namespace, s.Name, err)
		}
		r.tracker.wrote(key, updated)
		log.DebugContext(ctx, "endpointslice updated", "name", updated.Name, "endpoints", len(updated.Endpoints))
	}
	for _, s := range p.delete {
		err := slices.Delete(ctx, s.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete endpointslice %s/%s: %w", s.Namespace, s.Name, err)
		}
		r.tracker.deleted(key, s.Name)
		log.DebugContext(ctx, "endpointslice deleted", "name", s.Name)
	}
	return nil
}
