package replicaset

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/expectations"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/replicaset-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "replicaset-controller"

// ControllerName is the controller's name in --controllers and in its
// logs, as kube-controller-manager's.
const ControllerName = "replicaset"

// EventSource is the component that the controller's events name.
const EventSource = "replicaset-controller"

// BurstReplicas is the most pods one sync creates or deletes: a
// ReplicaSet scaled by thousands converges over several syncs, each
// waiting for the informer to show the previous one's pods, rather than
// flooding the API server in one. 500, upstream's value "based off
// performance requirements for kubernetes 1.0".
const BurstReplicas = 500

// DefaultConcurrentSyncs is how many ReplicaSets are synced at once:
// kube-controller-manager's --concurrent-replicaset-syncs default.
const DefaultConcurrentSyncs = 5

// statusUpdateRetries is how many times a status write that conflicts is
// retried on a fresh read within one sync, as upstream; after that the
// sync fails and is retried with backoff.
const statusUpdateRetries = 1

// replicaSetKind is written into the ownerReferences of the pods.
var replicaSetKind = appsv1.SchemeGroupVersion.WithKind("ReplicaSet")

// Options tunes the controller. The zero Options is upstream's defaults.
type Options struct {
	// ConcurrentSyncs is how many ReplicaSets are synced at once. Defaults
	// to DefaultConcurrentSyncs.
	ConcurrentSyncs int
	// BurstReplicas is the most pods one sync creates or deletes.
	// Defaults to BurstReplicas.
	BurstReplicas int
}

// Add adds the ReplicaSet controller, with upstream's defaults, to mgr:
// the controllermanager.AddFunc of "replicaset".
func Add(mgr *manager.Manager) error { return AddWithOptions(mgr, Options{}) }

// AddWithOptions adds the ReplicaSet controller, tuned by opts, to mgr.
// It watches ReplicaSets and Pods through mgr's cache.
func AddWithOptions(mgr *manager.Manager, opts Options) error {
	r, err := NewReconciler(mgr, opts)
	if err != nil {
		return err
	}
	if opts.ConcurrentSyncs == 0 {
		opts.ConcurrentSyncs = DefaultConcurrentSyncs
	}
	// Watches rather than For and Owns: the ReplicaSet handler must drop
	// the expectations of a deleted or replaced ReplicaSet, and the pod
	// handler must feed the expectations and find the ReplicaSets an
	// orphan matches, which the generic handlers cannot.
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		Watches(&appsv1.ReplicaSet{}, replicaSetEventHandler{r: r}).
		Watches(&corev1.Pod{}, podEventHandler{r: r}).
		WithOptions(controller.Options{MaxConcurrentReconciles: opts.ConcurrentSyncs}).
		Complete(r)
}

// Reconciler syncs one ReplicaSet with its pods. Make it with
// NewReconciler; AddWithOptions also wires the event handlers that feed
// its expectations. It is safe for concurrent use by the controller's
// workers (never two of them on one ReplicaSet).
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (ReplicaSetController).
type Reconciler struct {
	clientset    *client.Clientset
	rsLister     *informer.Lister[*appsv1.ReplicaSet]
	podLister    *informer.Lister[*corev1.Pod]
	expectations *expectations.Expectations
	recorder     record.EventRecorder
	clock        clock.Clock
	burst        int
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// NewReconciler returns a Reconciler reading mgr's cache (whose
// ReplicaSet and Pod informers it requests) and writing through mgr's
// client, with empty expectations. Alone, without the event handlers
// AddWithOptions wires, nothing observes its creations and deletions:
// after it acts, its syncs of that ReplicaSet only count and report
// until the expectations expire (expectations.Timeout).
func NewReconciler(mgr *manager.Manager, opts Options) (*Reconciler, error) {
	if mgr == nil {
		return nil, errors.New("replicaset: nil manager")
	}
	if opts.ConcurrentSyncs < 0 || opts.BurstReplicas < 0 {
		return nil, fmt.Errorf("replicaset: negative options %+v", opts)
	}
	if opts.BurstReplicas == 0 {
		opts.BurstReplicas = BurstReplicas
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	rsLister, err := cache.ListerFor[*appsv1.ReplicaSet](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	podLister, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	return &Reconciler{
		clientset:    cs,
		rsLister:     rsLister,
		podLister:    podLister,
		expectations: expectations.New(mgr.GetClock()),
		recorder:     mgr.GetEventRecorderFor(EventSource),
		clock:        mgr.GetClock(),
		burst:        opts.BurstReplicas,
	}, nil
}

// Reconcile syncs the ReplicaSet req names, as the package doc describes.
// It returns an error (retried with backoff) when claiming, creating,
// deleting or writing the status failed, and asks to be called again
// when a ready pod is due to become available.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (ReplicaSetController.syncReplicaSet).
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.String()
	rs, err := r.rsLister.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		logging.FromContext(ctx).DebugContext(ctx, "replicaset deleted", "namespace", req.Namespace, "name", req.Name)
		r.expectations.Delete(key)
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}

	// Asked before the pods are listed: expectations met now mean every
	// pod they waited for is in the cache, and so in the list below. In
	// the other order a pod observed in between would be acted on twice.
	needsSync := r.expectations.Satisfied(key)
	selector, err := labels.FromLabelSelector(rs.Spec.Selector)
	if err != nil {
		// Validation keeps such selectors out; retrying cannot fix one.
		return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("replicaset %s: selector: %w", key, err))
	}
	// Every pod of the namespace, not only the selected ones: owned pods
	// that no longer match must be seen to be released.
	allPods, err := r.podLister.ByNamespace(rs.Namespace).List(nil)
	if err != nil {
		return reconcile.Result{}, err
	}
	active, err := r.claimPods(ctx, rs, selector, filterActivePods(allPods))
	if err != nil {
		return reconcile.Result{}, err
	}

	var manageErr error
	if needsSync && rs.DeletionTimestamp == nil {
		manageErr = r.manageReplicas(ctx, active, rs)
	}
	terminating := filterClaimedPods(rs, selector, filterTerminatingPods(allPods))
	now := r.clock.Now()
	if _, err := r.updateStatus(ctx, rs, calculateStatus(rs, active, terminating, manageErr, now)); err != nil {
		return reconcile.Result{}, err
	}
	if manageErr != nil {
		return reconcile.Result{}, manageErr
	}
	return reconcile.Result{RequeueAfter: nextAvailabilityCheck(rs, active, now)}, nil
}

// claimPods adopts and releases pods for rs (see controllerref.Claim) and
// returns the ones it owns. Adoption first rereads rs from the API server:
// the cache may not show yet that it is being deleted, and pods adopted by
// a deleted ReplicaSet would be garbage collected.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (ReplicaSetController.claimPods).
func (r *Reconciler) claimPods(ctx context.Context, rs *appsv1.ReplicaSet, selector labels.Selector, pods []*corev1.Pod) ([]*corev1.Pod, error) {
	m := controllerref.For(rs, replicaSetKind, selector, r.clientset.ReplicaSets(rs.Namespace), r.clientset.Pods(rs.Namespace))
	return controllerref.Claim(ctx, m, pods)
}

// nextAvailabilityCheck returns when rs should be synced again for a
// ready pod of active to count as available, or 0 if none is waiting for
// minReadySeconds. No event marks that moment, so the sync asks for it.
// The extra second is upstream's margin: a pod becomes available strictly
// after minReadySeconds, and the kubelet's clock may be behind ours.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (the
// enqueueRSAfter of updatePod and the AddAfter at the end of
// syncReplicaSet, both MinReadySeconds later, which this replaces with the
// exact moment).
func nextAvailabilityCheck(rs *appsv1.ReplicaSet, active []*corev1.Pod, now time.Time) time.Duration {
	if rs.Spec.MinReadySeconds <= 0 {
		return 0
	}
	minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
	var next time.Duration
	for _, pod := range active {
		c := podReadyCondition(pod)
		if c == nil || c.Status != corev1.ConditionTrue || c.LastTransitionTime.IsZero() ||
			isPodAvailable(pod, rs.Spec.MinReadySeconds, now) {
			continue
		}
		d := max(c.LastTransitionTime.Add(minReady).Sub(now), 0) + time.Second
		if next == 0 || d < next {
			next = d
		}
	}
	return next
}

// requestFor is the Request of rs.
func requestFor(rs *appsv1.ReplicaSet) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: rs.Namespace, Name: rs.Name}}
}

// keyFor is the expectations key of rs: its Request's string.
func keyFor(rs *appsv1.ReplicaSet) string { return requestFor(rs).String() }
