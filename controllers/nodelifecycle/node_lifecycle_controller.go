package nodelifecycle

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/node-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "node-controller"

// ControllerName is the node lifecycle controller's name, as
// kube-controller-manager's --controllers flag spells it.
const ControllerName = "node-lifecycle-controller"

// eventComponent is the source of the controller's events.
const eventComponent = "node-controller"

// The timing of node health, kube-controller-manager v1.32's defaults.
// They fit the kubelet's: it renews its Lease every 10s (a quarter of
// its 40s duration) and posts its status every 10s, so the grace period
// covers several missed heartbeats, and is longer than the 45s an HTTP/2
// connection can take to notice it is dead.
const (
	// NodeMonitorPeriod is how often every node's health is checked:
	// --node-monitor-period.
	NodeMonitorPeriod = 5 * time.Second
	// NodeMonitorGracePeriod is how long a node may go without a
	// heartbeat before its conditions are set Unknown:
	// --node-monitor-grace-period, 50s since v1.32 (40s before,
	// kubernetes#126287).
	NodeMonitorGracePeriod = 50 * time.Second
	// NodeStartupGracePeriod replaces NodeMonitorGracePeriod for a node
	// whose kubelet never posted a Ready condition:
	// --node-startup-grace-period.
	NodeStartupGracePeriod = 60 * time.Second
)

// nodeWorkers is how many nodes are reconciled at once: upstream's
// nodeUpdateWorkerSize. The work is mostly waiting for the API server.
const nodeWorkers = 8

// Add adds the node lifecycle controller to mgr, with the taint eviction
// controller that evicts the pods of the nodes it taints.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (startNodeLifecycleController, startTaintEvictionController).
func Add(mgr *manager.Manager) error {
	c := mgr.GetCache()
	nodes, err := cache.ListerFor[*corev1.Node](c)
	if err != nil {
		return fmt.Errorf("nodelifecycle: %w", err)
	}
	leases, err := cache.ListerFor[*coordinationv1.Lease](c)
	if err != nil {
		return fmt.Errorf("nodelifecycle: %w", err)
	}
	podsOn, err := podsOnNode(c)
	if err != nil {
		return fmt.Errorf("nodelifecycle: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("nodelifecycle: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("nodelifecycle: %w", err)
	}
	nc := &Controller{
		clientset: cs, clock: mgr.GetClock(), nodes: nodes, leases: leases, podsOnNode: podsOn,
		recorder:     mgr.GetEventRecorderFor(eventComponent),
		health:       map[string]*nodeHealth{},
		zoneStates:   map[string]zoneState{},
		limiters:     map[string]*tokenBucket{},
		nodesToRetry: map[string]bool{},
		podsToCheck:  map[string]map[reconcile.NamespacedName]struct{}{},
	}
	err = builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		For(&corev1.Node{}).
		Watches(&coordinationv1.Lease{}, leaseHandler()).
		Watches(&corev1.Pod{}, nc.podAssignedHandler()).
		WithOptions(controller.Options{MaxConcurrentReconciles: nodeWorkers}).
		Complete(nc)
	if err != nil {
		return fmt.Errorf("nodelifecycle: %w", err)
	}
	return addTaintEviction(mgr, cs, nodes, podsOn)
}

// Controller watches the nodes' heartbeats: it sets the conditions of a
// node that stopped posting to Unknown, taints nodes by their conditions
// (NoSchedule) and taints unhealthy nodes NoExecute, at a rate that
// depends on how much of their zone is unhealthy, so that the taint
// eviction controller evicts their pods. Make it with Add.
//
// Each node is reconciled on every change of the node, its Lease or the
// pods bound to it, and again NodeMonitorPeriod after its last
// reconcile: the periodic check catches the heartbeats that stopped.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle (Controller),
// whose monitorNodeHealth pass over all nodes is here one reconcile per
// node.
type Controller struct {
	clientset  *client.Clientset
	clock      clock.Clock
	nodes      *informer.Lister[*corev1.Node]
	leases     *informer.Lister[*coordinationv1.Lease]
	podsOnNode func(node string) []*corev1.Pod
	recorder   record.EventRecorder

	// mu guards the fields below. It is never held across a call to the
	// API server.
	mu sync.Mutex
	// health holds every node seen and not since deleted.
	health map[string]*nodeHealth
	// zoneStates and limiters are each zone's state and tainting pace.
	zoneStates map[string]zoneState
	limiters   map[string]*tokenBucket
	// nodesToRetry are the nodes whose pods could not all be marked not
	// ready.
	nodesToRetry map[string]bool
	// podsToCheck are, per node, the pods bound to it since its last
	// reconcile.
	podsToCheck map[string]map[reconcile.NamespacedName]struct{}
}

var _ reconcile.Reconciler = (*Controller)(nil)

// Reconcile implements reconcile.Reconciler for the node named by req:
//
//  1. a node seen for the first time is registered, and its NoExecute
//     taints go (it gets a fresh grace period);
//  2. its heartbeats are recorded; past the grace period its conditions
//     are set Unknown;
//  3. its NoSchedule taints are made to match its conditions;
//  4. the zones' states are recomputed;
//  5. it is tainted NoExecute (not-ready or unreachable) if unhealthy, at
//     its zone's pace, or untainted if healthy;
//  6. when it just stopped being ready, a NodeNotReady event is recorded
//     and its pods are marked not ready.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.monitorNodeHealth, doNodeProcessingPassWorker).
func (nc *Controller) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cached, err := nc.nodes.Get("", req.Name)
	if apierrors.IsNotFound(err) {
		nc.forgetNode(req.Name)
		nc.handleDisruption(ctx)
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	node := cached.DeepCopy()

	nc.mu.Lock()
	_, known := nc.health[node.Name]
	nc.mu.Unlock()
	if !known {
		nc.recorder.Eventf(nodeRef(node.Name, node.UID), corev1.EventTypeNormal, "RegisteredNode",
			"Registered Node %s in Controller", node.Name)
		if node, err = nc.markNodeAsReachable(ctx, node); err != nil {
			return reconcile.Result{}, err
		}
	}
	observed, current, node, err := nc.updateNodeHealth(ctx, node)
	if err != nil {
		return reconcile.Result{}, err
	}
	if node, err = nc.doNoScheduleTaintingPass(ctx, node); err != nil {
		return reconcile.Result{}, err
	}
	nc.handleDisruption(ctx)
	next := NodeMonitorPeriod
	if current == nil {
		// A node whose kubelet never posted, within its startup grace:
		// nothing to judge yet.
		return reconcile.Result{RequeueAfter: next}, nil
	}
	wait, err := nc.processTaintBaseEviction(ctx, node, observed, current)
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := nc.markPods(ctx, node, observed, current); err != nil {
		return reconcile.Result{}, err
	}
	if wait > 0 && wait < next {
		next = wait
	}
	return reconcile.Result{RequeueAfter: next}, nil
}

// forgetNode drops a deleted node.
func (nc *Controller) forgetNode(name string) {
	nc.mu.Lock()
	_, known := nc.health[name]
	delete(nc.health, name)
	delete(nc.nodesToRetry, name)
	delete(nc.podsToCheck, name)
	nc.mu.Unlock()
	if known {
		nc.recorder.Eventf(nodeRef(name, ""), corev1.EventTypeNormal, "RemovingNode", "Removing Node %s from Controller", name)
	}
}

// processTaintBaseEviction taints an unhealthy node NoExecute, as its
// Ready condition was observed (before this reconcile's update): the
// unreachable taint for Unknown, the not-ready taint for False, swapping
// one for the other at once, and adding a first one at its zone's pace
// (returning how long until the zone allows it). A healthy node loses
// both. While every zone is fully disrupted no node keeps them.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.processTaintBaseEviction, doNoExecuteTaintingPass).
func (nc *Controller) processTaintBaseEviction(ctx context.Context, node *corev1.Node, observed corev1.NodeCondition, current *corev1.NodeCondition) (time.Duration, error) {
	// current is not nil: Reconcile checks.
	if observed.Status == corev1.ConditionTrue {
		_, err := nc.markNodeAsReachable(ctx, node)
		return 0, err
	}
	now := nc.clock.Now()
	nc.mu.Lock()
	full := nc.fullDisruptionLocked()
	nc.mu.Unlock()
	if full {
		_, err := nc.markNodeAsReachable(ctx, node)
		return 0, err
	}
	add, opposite := taintFor(observed.Status)
	if taintExists(node.Spec.Taints, opposite) {
		// The node was tainted already: change the kind at once.
		_, err := nc.swapNodeControllerTaint(ctx, node, []corev1.Taint{add}, []corev1.Taint{opposite})
		return 0, err
	}
	if taintExists(node.Spec.Taints, add) {
		return 0, nil
	}
	// A first taint is paced per zone, and its kind follows the Ready
	// condition as it is now, which the kubelet may have changed.
	if current.Status == corev1.ConditionTrue {
		return 0, nil
	}
	add, opposite = taintFor(current.Status)
	nc.mu.Lock()
	ok, wait := nc.limiterLocked(zoneKey(node), now).tryAccept(now)
	nc.mu.Unlock()
	if !ok {
		return wait, nil
	}
	_, err := nc.swapNodeControllerTaint(ctx, node, []corev1.Taint{add}, []corev1.Taint{opposite})
	return 0, err
}

// taintFor returns the NoExecute taint of a Ready condition status that
// is not True, and the other one, which it replaces.
func taintFor(status corev1.ConditionStatus) (add, opposite corev1.Taint) {
	if status == corev1.ConditionFalse {
		return NotReadyTaintTemplate, UnreachableTaintTemplate
	}
	return UnreachableTaintTemplate, NotReadyTaintTemplate
}

// limiterLocked returns zone's tainting limiter, making one at the
// normal pace for a zone handleDisruption does not track (its nodes are
// all excluded from disruption checks). nc.mu must be held.
func (nc *Controller) limiterLocked(zone string, now time.Time) *tokenBucket {
	l, ok := nc.limiters[zone]
	if !ok {
		l = newTokenBucket(evictionLimiterQPS, now)
		nc.limiters[zone] = l
	}
	return l
}

// markPods records a NodeNotReady event when the node just stopped being
// ready, and marks its pods not ready then, when an earlier try failed,
// and for pods bound to it since while it is not ready.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.monitorNodeHealth, processPod).
func (nc *Controller) markPods(ctx context.Context, node *corev1.Node, observed corev1.NodeCondition, current *corev1.NodeCondition) error {
	nc.mu.Lock()
	bound := nc.podsToCheck[node.Name]
	delete(nc.podsToCheck, node.Name)
	needsRetry := nc.nodesToRetry[node.Name]
	nc.mu.Unlock()
	if current == nil {
		return nil
	}
	var pods []*corev1.Pod
	switch {
	case current.Status != corev1.ConditionTrue && observed.Status == corev1.ConditionTrue:
		nc.recorder.Eventf(nodeRef(node.Name, node.UID), corev1.EventTypeNormal, "NodeNotReady",
			"Node %s status is now: NodeNotReady", node.Name)
		pods = nc.podsOnNode(node.Name)
	case needsRetry && observed.Status != corev1.ConditionTrue:
		pods = nc.podsOnNode(node.Name)
	case current.Status != corev1.ConditionTrue && len(bound) > 0:
		for _, pod := range nc.podsOnNode(node.Name) {
			if _, ok := bound[reconcile.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}]; ok {
				pods = append(pods, pod)
			}
		}
	}
	err := nc.markPodsNotReady(ctx, pods, node.Name)
	nc.mu.Lock()
	if err != nil {
		nc.nodesToRetry[node.Name] = true
	} else {
		delete(nc.nodesToRetry, node.Name)
	}
	nc.mu.Unlock()
	return err
}
