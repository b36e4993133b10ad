package namespace

import (
	"context"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/logging"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/namespace-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "namespace-controller"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "namespace"

const (
	// concurrentNamespaceSyncs is how many namespaces are cleaned up at
	// once: kube-controller-manager's --concurrent-namespace-syncs
	// default. Each sync is mostly waiting on the API server.
	concurrentNamespaceSyncs = 10

	// namespaceDeletionGracePeriod is how long after a namespace's
	// deletion the cleanup starts, as upstream's: time for every API
	// server (minicp may run several on one etcd) to see the namespace
	// Terminating and refuse new content, and for creates admitted just
	// before to land, so the cleanup finds them.
	namespaceDeletionGracePeriod = 5 * time.Second

	// The per-namespace retry backoff of upstream's nsControllerRateLimiter:
	// a failing cleanup is retried at least every minute, never
	// longer, since a namespace stuck Terminating blocks its re-creation.
	retryBaseDelay = 5 * time.Millisecond
	retryMaxDelay  = 60 * time.Second
	// retryQPS and retryBurst bound all retries together, as the default
	// controller limiter does: 10 a second after a burst of 100.
	retryQPS   = 10
	retryBurst = 100
)

// Add adds the namespace controller to mgr: it reconciles every
// namespace being deleted, ten at a time.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager
// (startNamespaceController).
func Add(mgr *manager.Manager) error {
	namespaces, err := cache.ListerFor[*corev1.Namespace](mgr.GetCache())
	if err != nil {
		return fmt.Errorf("namespace controller: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("namespace controller: %w", err)
	}
	deleter, err := newNamespacedResourcesDeleter(cl, mgr.GetClock(), corev1.FinalizerKubernetes)
	if err != nil {
		return fmt.Errorf("namespace controller: %w", err)
	}
	r := &namespaceController{namespaces: namespaces, deleter: deleter, clock: mgr.GetClock()}
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		Watches(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(deletingNamespace)).
		WithOptions(controller.Options{
			MaxConcurrentReconciles: concurrentNamespaceSyncs,
			RateLimiter:             rateLimiter(mgr.GetClock()),
		}).
		Complete(r)
}

// rateLimiter is upstream's nsControllerRateLimiter on clk.
func rateLimiter(clk clock.Clock) workqueue.RateLimiter[reconcile.Request] {
	return workqueue.NewMaxOfRateLimiter(
		workqueue.NewItemExponentialFailureRateLimiter[reconcile.Request](retryBaseDelay, retryMaxDelay),
		workqueue.NewBucketRateLimiter[reconcile.Request](retryQPS, retryBurst, clk),
	)
}

// deletingNamespace enqueues a namespace only while it is being deleted:
// an active one has nothing for this controller to do.
func deletingNamespace(_ context.Context, obj metav1.Object) []reconcile.Request {
	meta := obj.GetObjectMeta()
	if meta.DeletionTimestamp == nil || meta.DeletionTimestamp.IsZero() {
		return nil
	}
	return []reconcile.Request{{NamespacedName: reconcile.NamespacedName{Name: meta.Name}}}
}

// namespaceController reconciles namespaces being deleted. It is safe
// for concurrent use: the workqueue never hands one namespace to two
// workers, and the deleter keeps no per-namespace state.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace
// (NamespaceController).
type namespaceController struct {
	namespaces *informer.Lister[*corev1.Namespace]
	deleter    *namespacedResourcesDeleter
	clock      clock.Clock
}

var _ reconcile.Reconciler = (*namespaceController)(nil)

// Reconcile deletes the content of the namespace req names, if it is
// being deleted, and finalizes it once empty. Content that is still going
// (pods in their grace period, objects with finalizers) makes it look
// again after half the estimated remaining time, as upstream's worker
// does with a ResourcesRemainingError.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace
// (NamespaceController.syncNamespaceFromKey and worker).
func (r *namespaceController) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	ns, err := r.namespaces.Get("", req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if ns.DeletionTimestamp == nil || ns.DeletionTimestamp.IsZero() {
		return reconcile.Result{}, nil
	}
	if wait := r.gracePeriodRemaining(ns.DeletionTimestamp.Time); wait > 0 {
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	estimate, err := r.deleter.Delete(ctx, ns.Name)
	if err != nil {
		return reconcile.Result{}, err
	}
	if estimate > 0 {
		// Half the estimate, so a pod that stops early is noticed early;
		// the extra second keeps a 1s estimate from spinning.
		wait := time.Duration(estimate/2+1) * time.Second
		logging.FromContext(ctx).DebugContext(ctx, "content remaining in namespace", "namespace", ns.Name, "wait", wait)
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	return reconcile.Result{}, nil
}

// gracePeriodRemaining is how much of namespaceDeletionGracePeriod is left
// for a namespace deleted at deletedAt. Upstream delays every event by the
// whole period; measuring it from the deletion gives the same guarantee
// without delaying later passes. It never exceeds the period, so a clock
// behind the API server's cannot stall the cleanup.
func (r *namespaceController) gracePeriodRemaining(deletedAt time.Time) time.Duration {
	remaining := namespaceDeletionGracePeriod - r.clock.Since(deletedAt)
	return min(remaining, namespaceDeletionGracePeriod)
}
