package clusterroleaggregation

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/clusterrole-aggregation-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "clusterrole-aggregation-controller"

// Add sets the controller up on mgr: "clusterrole-aggregation", which
// reconciles aggregated ClusterRoles. It has the signature of
// controllermanager.AddFunc.
func Add(mgr *manager.Manager) error {
	c, err := New(mgr)
	if err != nil {
		return err
	}
	err = builder.ControllerManagedBy(mgr).
		Named("clusterrole-aggregation").
		Watches(&rbacv1.ClusterRole{}, handler.EnqueueRequestsFromMapFunc(c.aggregatorsOf)).
		Complete(c)
	if err != nil {
		return fmt.Errorf("clusterroleaggregation: %w", err)
	}
	return nil
}

// Controller is the aggregation controller's Reconciler. Make one with
// New; Add also registers it. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/clusterroleaggregation
// (ClusterRoleAggregationController).
type Controller struct {
	roles       *informer.Lister[*rbacv1.ClusterRole]
	clusterRole *client.Resource[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList]
}

var _ reconcile.Reconciler = (*Controller)(nil)

// New returns the controller of mgr, reading ClusterRoles through mgr's
// cache and writing through its client. It starts nothing.
func New(mgr *manager.Manager) (*Controller, error) {
	if mgr == nil {
		return nil, errors.New("clusterroleaggregation: nil manager")
	}
	roles, err := cache.ListerFor[*rbacv1.ClusterRole](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("clusterroleaggregation: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("clusterroleaggregation: %w", err)
	}
	rc, err := client.NewResource[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList](cl,
		rbacv1.SchemeGroupVersion.WithResource("clusterroles"))
	if err != nil {
		return nil, fmt.Errorf("clusterroleaggregation: %w", err)
	}
	return &Controller{roles: roles, clusterRole: rc}, nil
}

// aggregatorsOf maps any ClusterRole event to every aggregated
// ClusterRole: a change to any role may change what one aggregates, as
// upstream's enqueueAll does.
func (c *Controller) aggregatorsOf(context.Context, metav1.Object) []reconcile.Request {
	all, err := c.roles.List(labels.Everything())
	if err != nil {
		return nil
	}
	var reqs []reconcile.Request
	for _, r := range all {
		if r.AggregationRule != nil {
			reqs = append(reqs, reconcile.Request{NamespacedName: reconcile.NamespacedName{Name: r.Name}})
		}
	}
	return reqs
}

// Reconcile sets the rules of the aggregated ClusterRole req names to the
// rules of the ClusterRoles its selectors match, in name order, each rule
// once. Roles that aggregate are never sources, so aggregation does not
// feed on itself.
//
// Upstream: k8s.io/kubernetes/pkg/controller/clusterroleaggregation
// (ClusterRoleAggregationController.syncClusterRole).
func (c *Controller) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	role, err := c.roles.Get("", req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if role.AggregationRule == nil {
		return reconcile.Result{}, nil
	}
	all, err := c.roles.List(labels.Everything())
	if err != nil {
		return reconcile.Result{}, err
	}
	slices.SortFunc(all, func(a, b *rbacv1.ClusterRole) int { return strings.Compare(a.Name, b.Name) })
	var rules []rbacv1.PolicyRule
	seen := map[string]bool{role.Name: true}
	for _, ps := range role.AggregationRule.ClusterRoleSelectors {
		sel, err := labels.FromLabelSelector(&ps)
		if err != nil {
			return reconcile.Result{}, reconcile.TerminalError(err)
		}
		for _, src := range all {
			if seen[src.Name] || !sel.Matches(labels.Set(src.Labels)) {
				continue
			}
			seen[src.Name] = true
			for _, r := range src.Rules {
				if !slices.ContainsFunc(rules, func(have rbacv1.PolicyRule) bool { return reflect.DeepEqual(have, r) }) {
					rules = append(rules, r)
				}
			}
		}
	}
	if reflect.DeepEqual(rules, role.Rules) || len(rules) == 0 && len(role.Rules) == 0 {
		return reconcile.Result{}, nil
	}
	updated := role.DeepCopy()
	updated.Rules = rules
	_, err = c.clusterRole.Update(ctx, updated, client.WriteOptions{})
	if apierrors.IsConflict(err) {
		// The cache was behind a write of role (at a cluster's first
		// start, the bootstrap's own): the change's event brings the
		// Request back, so this is no failure to warn about.
		logging.FromContext(ctx).Debug("conflict, retrying", "err", err)
		return reconcile.Result{Requeue: true}, nil
	}
	if err != nil {
		return reconcile.Result{}, fmt.Errorf("update clusterrole %s: %w", role.Name, err)
	}
	return reconcile.Result{}, nil
}
