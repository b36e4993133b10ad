package endpoints

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/endpoint-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "endpoint-controller"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "endpoints-controller"

// The recorder component of the controller's events.
const eventComponent = "endpoint-controller"

// The annotations and label the controller writes on Endpoints.
const (
	// AnnotationLastChangeTriggerTime is when the earliest change
	// reflected by the last write happened (RFC 3339, nanoseconds).
	AnnotationLastChangeTriggerTime = "endpoints.kubernetes.io/last-change-trigger-time"
	// AnnotationOverCapacity is "truncated" when more than 1000
	// addresses were cut down to 1000.
	AnnotationOverCapacity = "endpoints.kubernetes.io/over-capacity"
	// LabelHeadless marks the Endpoints of a headless Service.
	LabelHeadless = "service.kubernetes.io/headless"
)

// concurrentSyncs is how many Services are synced at once: upstream's
// --concurrent-endpoint-syncs default.
const concurrentSyncs = 5

// maxWriteTries bounds the tries of one sync's write. A conflict or an
// AlreadyExists means the cache was behind the API; the next try reads
// the Endpoints from the API server itself rather than waiting (on the
// manager's clock, which may be a test's fake) for a retry.
const maxWriteTries = 3

// writeRetry tries again at once: see maxWriteTries.
var writeRetry = wait.Backoff{Steps: maxWriteTries}

// endpointsResource names the resource of the conflicts writeRetry makes
// of AlreadyExists.
var endpointsResource = runtime.GroupResource{Resource: "endpoints"}

// Add adds the endpoints controller to mgr: it reconciles Services,
// watching the pods they select and the Endpoints it writes.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (startEndpointsController).
func Add(mgr *manager.Manager) error {
	c := mgr.GetCache()
	services, err := cache.ListerFor[*corev1.Service](c)
	if err != nil {
		return fmt.Errorf("endpoints: %w", err)
	}
	pods, err := cache.ListerFor[*corev1.Pod](c)
	if err != nil {
		return fmt.Errorf("endpoints: %w", err)
	}
	endpoints, err := cache.ListerFor[*corev1.Endpoints](c)
	if err != nil {
		return fmt.Errorf("endpoints: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("endpoints: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("endpoints: %w", err)
	}
	r := &Reconciler{
		clientset: cs, services: services, pods: pods, endpoints: endpoints,
		recorder:    mgr.GetEventRecorderFor(eventComponent),
		triggerTime: newTriggerTimeTracker(),
		stale:       map[reconcile.NamespacedName]string{},
	}
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		For(&corev1.Service{}).
		Watches(&corev1.Pod{}, podHandler(services)).
		// Endpoints deleted by someone else are written again.
		Watches(&corev1.Endpoints{}, handler.Funcs{DeleteFunc: func(ctx context.Context, ev event.DeleteEvent, q handler.Queue) {
			handler.EnqueueRequestForObject{}.Delete(ctx, ev, q)
		}}).
		WatchesRawSource(newLeftoverSource(c, endpoints)).
		WithOptions(controller.Options{MaxConcurrentReconciles: concurrentSyncs}).
		Complete(r)
}

// Reconciler syncs one Service's Endpoints. Make it with Add.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint (Controller).
type Reconciler struct {
	clientset   *client.Clientset
	services    *informer.Lister[*corev1.Service]
	pods        *informer.Lister[*corev1.Pod]
	endpoints   *informer.Lister[*corev1.Endpoints]
	recorder    record.EventRecorder
	triggerTime *triggerTimeTracker

	// mu guards stale: for each Endpoints, the resourceVersion this
	// controller last replaced. Finding it in the cache means the cache
	// has not seen the write yet, so the API server is read instead.
	mu    sync.Mutex
	stale map[reconcile.NamespacedName]string
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// Reconcile implements reconcile.Reconciler: it makes the Endpoints named
// by req match the Service of that name, or deletes them when the Service
// is gone.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint (Controller.syncService).
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.NamespacedName
	svc, err := r.services.Get(key.Namespace, key.Name)
	if apierrors.IsNotFound(err) {
		// The Service is gone, and so are its Endpoints. (A Service
		// deleted while no controller ran is found at start, by
		// leftoverSource.)
		err := r.clientset.Endpoints(key.Namespace).Delete(ctx, key.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return reconcile.Result{}, fmt.Errorf("delete endpoints %s: %w", key, err)
		}
		r.triggerTime.DeleteService(key)
		r.forgetStale(key)
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if svc.Spec.Type == corev1.ServiceTypeExternalName || len(svc.Spec.Selector) == 0 {
		// Someone else writes these Endpoints, if anyone: a Service
		// without a selector is how out-of-band endpoints are made.
		return reconcile.Result{}, nil
	}
	pods, err := r.pods.ByNamespace(svc.Namespace).List(labels.SelectorFromSet(svc.Spec.Selector))
	if err != nil {
		return reconcile.Result{}, err
	}
	// Computed even when nothing is written, so the tracker's state
	// follows every sync.
	triggerTime := r.triggerTime.ComputeTriggerTime(svc, pods)
	subsets := desiredSubsets(svc, pods)

	current, err := r.cachedEndpoints(ctx, key)
	if err != nil {
		return reconcile.Result{}, err
	}
	reread := false
	err = client.RetryOnConflict(ctx, writeRetry, func() error {
		if reread {
			var err error
			if current, err = r.liveEndpoints(ctx, key); err != nil {
				return err
			}
		}
		reread = true
		err := r.write(ctx, svc, current, subsets, triggerTime)
		if apierrors.IsAlreadyExists(err) {
			// A create that lost the race to another writer: a
			// conflict like an update's, retried on a live read.
			return apierrors.NewConflict(endpointsResource, key.Name, err)
		}
		return err
	})
	return reconcile.Result{}, err
}

// cachedEndpoints returns the Endpoints of key from the cache, or from the
// API server when the cache has not seen this controller's last write;
// nil when there are none.
func (r *Reconciler) cachedEndpoints(ctx context.Context, key reconcile.NamespacedName) (*corev1.Endpoints, error) {
	ep, err := r.endpoints.Get(key.Namespace, key.Name)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	replaced, isStale := r.stale[key]
	r.mu.Unlock()
	if isStale && replaced == ep.ResourceVersion {
		return r.liveEndpoints(ctx, key)
	}
	return ep, nil
}

// liveEndpoints reads the Endpoints of key from the API server; nil when
// there are none.
func (r *Reconciler) liveEndpoints(ctx context.Context, key reconcile.NamespacedName) (*corev1.Endpoints, error) {
	ep, err := r.clientset.Endpoints(key.Namespace).Get(ctx, key.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get endpoints %s: %w", key, err)
	}
	return ep, nil
}

func (r *Reconciler) forgetStale(key reconcile.NamespacedName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.stale, key)
}

// write creates or updates the Endpoints of svc (current, nil if none)
// to hold subsets, unless they already do.
func (r *Reconciler) write(ctx context.Context, svc *corev1.Service, current *corev1.Endpoints,
	subsets []corev1.EndpointSubset, triggerTime time.Time) error {
	create := current == nil
	if create {
		current = &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: svc.Name, Namespace: svc.Namespace}}
	} else if subsetsEqual(current.Subsets, subsets) &&
		maps.Equal(withoutLabel(current.Labels, LabelHeadless), svc.Labels) &&
		capacityAnnotationSetCorrectly(current.Annotations, current.Subsets) {
		return nil
	}
	ep := current.DeepCopy()
	ep.Subsets = subsets
	ep.Labels = maps.Clone(svc.Labels)
	if ep.Labels == nil {
		ep.Labels = map[string]string{}
	}
	if svc.Spec.ClusterIP == "" || svc.Spec.ClusterIP == corev1.ClusterIPNone {
		ep.Labels[LabelHeadless] = ""
	}
	if ep.Annotations == nil {
		ep.Annotations = map[string]string{}
	}
	if triggerTime.IsZero() {
		delete(ep.Annotations, AnnotationLastChangeTriggerTime)
	} else {
		ep.Annotations[AnnotationLastChangeTriggerTime] = triggerTime.UTC().Format(time.RFC3339Nano)
	}
	if truncateEndpoints(ep) {
		ep.Annotations[AnnotationOverCapacity] = "truncated"
	} else {
		delete(ep.Annotations, AnnotationOverCapacity)
	}

	key := reconcile.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}
	log := logging.FromContext(ctx)
	if create {
		_, err := r.clientset.Endpoints(svc.Namespace).Create(ctx, ep, client.WriteOptions{})
		if err == nil {
			log.DebugContext(ctx, "endpoints created", "subsets", len(ep.Subsets))
			return nil
		}
		if apierrors.IsForbidden(err) && namespaceTerminating(err) {
			return nil // nothing more can be created there
		}
		if !apierrors.IsAlreadyExists(err) {
			r.recorder.Eventf(withTypeMeta(ep), corev1.EventTypeWarning, "FailedToCreateEndpoint",
				"Failed to create endpoint for service %s/%s: %v", svc.Namespace, svc.Name, err)
		}
		return fmt.Errorf("create endpoints %s: %w", key, err)
	}
	updated, err := r.clientset.Endpoints(svc.Namespace).Update(ctx, ep, client.WriteOptions{})
	if err != nil {
		if !apierrors.IsConflict(err) {
			r.recorder.Eventf(withTypeMeta(ep), corev1.EventTypeWarning, "FailedToUpdateEndpoint",
				"Failed to update endpoint %s/%s: %v", svc.Namespace, svc.Name, err)
		}
		return fmt.Errorf("update endpoints %s: %w", key, err)
	}
	log.DebugContext(ctx, "endpoints updated", "subsets", len(ep.Subsets))
	if updated.ResourceVersion != current.ResourceVersion {
		r.mu.Lock()
		r.stale[key] = current.ResourceVersion
		r.mu.Unlock()
	}
	return nil
}

// withoutLabel returns m without key, copying only when it has it.
func withoutLabel(m map[string]string, key string) map[string]string {
	if _, ok := m[key]; !ok {
		return m
	}
	out := maps.Clone(m)
	delete(out, key)
	return out
}

// namespaceTerminating reports whether err is NamespaceLifecycle's refusal
// to create in a namespace being deleted.
func namespaceTerminating(err error) bool {
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == "NamespaceTerminating" {
			return true
		}
	}
	return false
}

// withTypeMeta returns ep with its kind set, for an event's reference.
func withTypeMeta(ep *corev1.Endpoints) *corev1.Endpoints {
	c := *ep
	c.TypeMeta = metav1.TypeMeta{Kind: "Endpoints", APIVersion: "v1"}
	return &c
}
