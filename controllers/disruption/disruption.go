package disruption

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/endpoints"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/disruption-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "disruption-controller"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "disruption-controller"

// DeletionTimeout is how long an evicted pod may stay in a budget's
// disruptedPods without being seen as deleted. Past it the eviction is
// taken not to have happened and the pod counts again. Evictions and this
// controller share one API server, so the two minutes of upstream are
// far more than the delay between them.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (DeletionTimeout).
const DeletionTimeout = 2 * time.Minute

// PodDisruptionBudgetClient is the client of policy/v1
// poddisruptionbudgets.
type PodDisruptionBudgetClient = client.Resource[*policyv1.PodDisruptionBudget, *policyv1.PodDisruptionBudgetList]

// Add adds the disruption controller to mgr: it reconciles
// PodDisruptionBudgets, woken by the pods they select, and resets stale
// DisruptionTarget conditions of pods.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (newDisruptionController).
func Add(mgr *manager.Manager) error {
	r, err := New(mgr)
	if err != nil {
		return err
	}
	err = builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		For(&policyv1.PodDisruptionBudget{}).
		Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(r.budgetsOfPod)).
		Complete(r)
	if err != nil {
		return fmt.Errorf("disruption: %w", err)
	}
	return addStalePodDisruption(mgr, r.pods)
}

// Reconciler computes the status of one PodDisruptionBudget. Make it with
// New; Add also registers it. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (DisruptionController).
type Reconciler struct {
	pdbs        *informer.Lister[*policyv1.PodDisruptionBudget]
	pods        *informer.Lister[*corev1.Pod]
	replicaSets *informer.Lister[*appsv1.ReplicaSet]
	deployments *informer.Lister[*appsv1.Deployment]
	statefulSet *informer.Lister[*appsv1.StatefulSet]
	client      *client.Client
	pdbClient   *PodDisruptionBudgetClient
	recorder    record.EventRecorder
	clock       clock.Clock
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// New returns the controller of mgr, reading through mgr's cache and
// writing through its client, on mgr's clock. It starts nothing.
func New(mgr *manager.Manager) (*Reconciler, error) {
	if mgr == nil {
		return nil, errors.New("disruption: nil manager")
	}
	c := mgr.GetCache()
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("disruption: %w", err)
	}
	r := &Reconciler{client: cl, recorder: mgr.GetEventRecorderFor(ControllerName), clock: mgr.GetClock()}
	var errs []error
	errs = append(errs, listerFor(c, &r.pdbs), listerFor(c, &r.pods), listerFor(c, &r.replicaSets),
		listerFor(c, &r.deployments), listerFor(c, &r.statefulSet))
	pdbClient, err := client.NewResource[*policyv1.PodDisruptionBudget, *policyv1.PodDisruptionBudgetList](
		cl, policyv1.Resource().GVR)
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("disruption: %w", err)
	}
	r.pdbClient = pdbClient
	return r, nil
}

func listerFor[T metav1.Object](c *cache.Cache, into **informer.Lister[T]) error {
	l, err := cache.ListerFor[T](c)
	*into = l
	return err
}

// budgetsOfPod maps a pod to the budgets of its namespace that select it.
// Upstream wakes only the first; waking each costs nothing and keeps
// every budget's count right.
func (r *Reconciler) budgetsOfPod(_ context.Context, obj metav1.Object) []reconcile.Request {
	meta := obj.GetObjectMeta()
	pdbs, err := r.pdbs.ByNamespace(meta.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []reconcile.Request
	for _, pdb := range pdbs {
		sel, err := labels.FromLabelSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(labels.Set(meta.Labels)) {
			continue
		}
		out = append(out, reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: pdb.Namespace, Name: pdb.Name}})
	}
	return out
}

// Reconcile implements reconcile.Reconciler: it writes the status of the
// budget req names. When the status cannot be computed it writes the
// fail-safe status instead (no disruption allowed) and asks for no retry:
// the next change of a selected pod tries again.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (DisruptionController.sync).
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pdb, err := r.pdbs.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	result, err := r.trySync(ctx, pdb)
	switch {
	case err == nil:
		return result, nil
	case apierrors.IsConflict(err):
		// Someone else (an eviction) wrote the status: compute again from
		// theirs, without failing safe.
		return reconcile.Result{}, err
	}
	logging.FromContext(ctx).WarnContext(ctx, "failed to sync pod disruption budget", "err", err)
	return reconcile.Result{}, r.failSafe(ctx, pdb, err)
}

// trySync computes and writes pdb's status. The result asks for another
// look when the oldest entry of disruptedPods expires.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (DisruptionController.trySync).
func (r *Reconciler) trySync(ctx context.Context, pdb *policyv1.PodDisruptionBudget) (reconcile.Result, error) {
	pods, err := r.podsFor(pdb)
	if err != nil {
		r.recorder.Eventf(pdb, corev1.EventTypeWarning, "NoPods", "Failed to get pods: %v", err)
		return reconcile.Result{}, err
	}
	if len(pods) == 0 {
		r.recorder.Event(pdb, corev1.EventTypeNormal, "NoPods", "No matching pods found")
	}
	expected, desiredHealthy, unmanaged, err := r.expectedPodCount(ctx, pdb, pods)
	if err != nil {
		r.recorder.Eventf(pdb, corev1.EventTypeWarning, "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: %v", err)
		return reconcile.Result{}, err
	}
	if len(unmanaged) > 0 {
		r.recorder.Eventf(pdb, corev1.EventTypeWarning, "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: %v) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", pdb.Spec.Selector)
	}
	now := r.clock.Now()
	disrupted, recheck := r.disruptedPodMap(pods, pdb, now)
	currentHealthy := countHealthyPods(pods, disrupted, now)
	if err := r.updateStatus(ctx, pdb, currentHealthy, desiredHealthy, expected, disrupted); err != nil {
		return reconcile.Result{}, err
	}
	if recheck.IsZero() {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{RequeueAfter: recheck.Sub(now)}, nil
}

// podsFor returns the pods pdb's selector picks in its namespace: none
// for a nil selector, all for an empty one.
func (r *Reconciler) podsFor(pdb *policyv1.PodDisruptionBudget) ([]*corev1.Pod, error) {
	sel, err := labels.FromLabelSelector(pdb.Spec.Selector)
	if err != nil {
		return nil, err
	}
	return r.pods.ByNamespace(pdb.Namespace).List(sel)
}

// countHealthyPods counts the ready pods that are neither being deleted
// nor recently evicted.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (countHealthyPods).
func countHealthyPods(pods []*corev1.Pod, disrupted map[string]metav1.Time, now time.Time) int32 {
	var n int32
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		if t, ok := disrupted[pod.Name]; ok && t.Add(DeletionTimeout).After(now) {
			continue
		}
		if endpoints.IsPodReady(pod) {
			n++
		}
	}
	return n
}

// disruptedPodMap returns the entries of pdb's disruptedPods still worth
// keeping: pods that exist, are not yet being deleted, and were evicted
// less than DeletionTimeout ago. It also returns when the oldest kept
// entry expires (zero if none).
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption
// (DisruptionController.buildDisruptedPodMap).
func (r *Reconciler) disruptedPodMap(pods []*corev1.Pod, pdb *policyv1.PodDisruptionBudget, now time.Time) (map[string]metav1.Time, time.Time) {
	out := map[string]metav1.Time{}
	var recheck time.Time
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		t, ok := pdb.Status.DisruptedPods[pod.Name]
		if !ok {
			continue
		}
		expires := t.Add(DeletionTimeout)
		if expires.Before(now) {
			r.recorder.Eventf(pod, corev1.EventTypeWarning, "NotDeleted", "Pod was expected by PDB %s/%s to be deleted but it wasn't",
				pdb.Namespace, pdb.Name)
			continue
		}
		if recheck.IsZero() || expires.Before(recheck) {
			recheck = expires
		}
		out[pod.Name] = t
	}
	return out, recheck
}

// failSafe writes disruptionsAllowed 0 and the DisruptionAllowed
// condition False with reason SyncFailed: a budget this controller cannot
// compute allows no eviction.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption (DisruptionController.failSafe).
func (r *Reconciler) failSafe(ctx context.Context, pdb *policyv1.PodDisruptionBudget, cause error) error {
	out := pdb.DeepCopy()
	out.Status.DisruptionsAllowed = 0
	if out.Status.Conditions == nil {
		out.Status.Conditions = []metav1.Condition{}
	}
	policyv1.SetCondition(&out.Status.Conditions, metav1.Condition{
		Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse,
		Reason: policyv1.SyncFailedReason, Message: cause.Error(), ObservedGeneration: out.Status.ObservedGeneration,
	}, r.clock.Now())
	_, err := r.pdbClient.Namespace(pdb.Namespace).UpdateStatus(ctx, out, client.WriteOptions{})
	return err
}

// updateStatus writes pdb's status if it changed. disruptionsAllowed is 0
// while no pod is expected, so that a budget whose pods appear before
// this controller has seen them is safe.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption
// (DisruptionController.updatePdbStatus).
func (r *Reconciler) updateStatus(ctx context.Context, pdb *policyv1.PodDisruptionBudget, currentHealthy, desiredHealthy, expected int32,
	disrupted map[string]metav1.Time) error {
	allowed := currentHealthy - desiredHealthy
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	s := pdb.Status
	if s.CurrentHealthy == currentHealthy && s.DesiredHealthy == desiredHealthy && s.ExpectedPods == expected &&
		s.DisruptionsAllowed == allowed && sameTimes(s.DisruptedPods, disrupted) &&
		s.ObservedGeneration == pdb.Generation && policyv1.ConditionsAreUpToDate(pdb) {
		return nil
	}
	out := pdb.DeepCopy()
	out.Status = policyv1.PodDisruptionBudgetStatus{
		CurrentHealthy: currentHealthy, DesiredHealthy: desiredHealthy, ExpectedPods: expected,
		DisruptionsAllowed: allowed, DisruptedPods: disrupted, ObservedGeneration: pdb.Generation,
		Conditions: out.Status.Conditions,
	}
	policyv1.UpdateDisruptionAllowedCondition(out, r.clock.Now())
	// No retry here: a conflict goes back to the queue, and the next
	// attempt starts from the budget as the eviction left it.
	_, err := r.pdbClient.Namespace(pdb.Namespace).UpdateStatus(ctx, out, client.WriteOptions{})
	return err
}

// sameTimes compares two disruptedPods maps; nil and empty are the same,
// as the API cannot tell them apart.
func sameTimes(a, b map[string]metav1.Time) bool {
	return maps.EqualFunc(a, b, func(x, y metav1.Time) bool { return x.Equal(y.Time) })
}
