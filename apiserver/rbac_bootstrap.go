package apiserver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	authzrbac "github.com/minicp/minicp/apiserver/authz/rbac"
	"github.com/minicp/minicp/apiserver/authz/rbac/bootstrappolicy"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/storage"
)

// loopbackUser is who the server writes its own objects as: in
// system:masters, so the RBAC registry's escalation checks let it grant
// anything, as kube-apiserver's loopback client.
var loopbackUser = &request.User{Name: "system:apiserver", Groups: []string{request.SystemPrivilegedGroup}}

// bootstrapPolicyRetry is how long the server waits before retrying a
// reconciliation of the default policy that failed: etcd was briefly
// unavailable, most likely.
const bootstrapPolicyRetry = time.Second

// runBootstrapPolicy reconciles the default RBAC policy once the watch
// caches have synced, and creates the system priority classes, retrying
// on error until it succeeds or ctx is done, then closes policyReadyCh. Upstream: the rbac/bootstrap-roles
// post-start hook.
func (s *Server) runBootstrapPolicy(ctx context.Context) {
	for {
		revs, err := s.ensureBootstrapPolicy(ctx)
		if err == nil {
			err = s.waitPolicyCached(ctx, revs)
		}
		if err == nil {
			err = s.ensureSystemPriorityClasses(ctx)
		}
		if err == nil {
			close(s.policyReadyCh)
			return
		}
		s.log.Warn("reconciling the default RBAC policy failed, retrying", "err", err)
		t := s.clock.NewTimer(bootstrapPolicyRetry)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// waitPolicyCached blocks until the watch caches the RBAC authorizer reads
// hold the default policy: readiness promises that the default roles and
// bindings authorize, and a cache a moment behind etcd would deny the
// first requests (system:monitoring reading /metrics). revs holds, per
// resource, the newest revision among the policy objects as read or
// written; the cache receives an event at exactly that revision, so the
// wait ends with it and needs no progress report from etcd, which would
// cost a round trip at every start.
func (s *Server) waitPolicyCached(ctx context.Context, revs map[runtime.GroupVersionResource]int64) error {
	for gvr, rev := range revs {
		store, err := s.storeOf(gvr)
		if err != nil {
			return err
		}
		// A list no older than the revision is served by the watch cache
		// once it has reached it (from etcd without a cache).
		if _, err := store.Storage.GetList(ctx, store.KeyRoot(), storage.ListOptions{
			ResourceVersion: strconv.FormatInt(rev, 10), ResourceVersionMatch: storage.ResourceVersionMatchNotOlderThan, Recursive: true,
		}); err != nil {
			return fmt.Errorf("wait for the %s cache: %w", gvr.Resource, err)
		}
	}
	return nil
}

// checkBootstrapPolicy is the /readyz check of the default policy
// (upstream: poststarthook/rbac/bootstrap-roles).
func (s *Server) checkBootstrapPolicy(context.Context) error {
	select {
	case <-s.policyReadyCh:
		return nil
	default:
		return fmt.Errorf("the default RBAC policy is not reconciled yet")
	}
}

// EnsureBootstrapPolicy reconciles the default ClusterRoles and
// ClusterRoleBindings (bootstrappolicy): a missing one is created; one
// that exists gets the labels, annotations, rules (or aggregation
// selectors) and subjects it lacks, unless it is annotated
// rbac.authorization.kubernetes.io/autoupdate=false. Nothing is removed,
// so a cluster administrator's additions stay. A binding whose roleRef
// differs is replaced. The default flow control configuration is
// reconciled with it (see flowControlBootstrap). Start runs it; it is
// safe to call again.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/rest (PolicyData.EnsureRBACPolicy)
// and k8s.io/component-helpers/auth/rbac/reconciliation.
func (s *Server) EnsureBootstrapPolicy(ctx context.Context) error {
	_, err := s.ensureBootstrapPolicy(ctx)
	return err
}

// ensureBootstrapPolicy is EnsureBootstrapPolicy; it also returns, per
// resource, the newest revision among the objects it read or wrote, what
// waitPolicyCached waits for.
func (s *Server) ensureBootstrapPolicy(ctx context.Context) (map[runtime.GroupVersionResource]int64, error) {
	ctx = request.WithUser(ctx, loopbackUser)
	roles, err := s.storeOf(gvrClusterRoles)
	if err != nil {
		return nil, err
	}
	bindings, err := s.storeOf(gvrClusterRoleBindings)
	if err != nil {
		return nil, err
	}
	// One read per resource, not one per object: on a first start none of
	// the hundred-odd objects exists, and each would have cost a read of
	// the cache and then of etcd.
	flowControl := s.flowControlBootstrap()
	stores := []*registry.Store{roles, bindings}
	for _, w := range flowControl {
		stores = append(stores, w.store)
	}
	stored, err := readStored(ctx, stores...)
	if err != nil {
		return nil, err
	}
	// The objects are independent of one another, so they are written
	// at once: etcd batches concurrent writes into few commits, and a
	// server start, which waits for this, takes a few milliseconds
	// instead of one commit per object (42 of them).
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	revs := map[runtime.GroupVersionResource]int64{}
	done := func(gvr runtime.GroupVersionResource, rev int64, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
		}
		revs[gvr] = max(revs[gvr], rev)
	}
	for _, want := range bootstrappolicy.ClusterRoles() {
		wg.Go(func() {
			rev, err := reconcile(ctx, roles, stored[gvrClusterRoles], &want, reconcileClusterRole)
			if err != nil {
				err = fmt.Errorf("reconcile clusterrole %s: %w", want.Name, err)
			}
			done(gvrClusterRoles, rev, err)
		})
	}
	for _, want := range bootstrappolicy.ClusterRoleBindings() {
		wg.Go(func() {
			rev, err := reconcile(ctx, bindings, stored[gvrClusterRoleBindings], &want, reconcileClusterRoleBinding)
			if err != nil {
				err = fmt.Errorf("reconcile clusterrolebinding %s: %w", want.Name, err)
			}
			done(gvrClusterRoleBindings, rev, err)
		})
	}
	// The default flow control configuration is written the same way.
	for _, w := range flowControl {
		gvr := w.store.Resource.GVR
		wg.Go(func() {
			rev, err := w.run(ctx, stored[gvr])
			if err != nil {
				err = fmt.Errorf("reconcile %s: %w", gvr.Resource, err)
			}
			done(gvr, rev, err)
		})
	}
	wg.Wait()
	return revs, errors.Join(errs...)
}

// storedObjects are a cluster-scoped resource's objects by name, as
// readStored found them.
type storedObjects map[string]runtime.Object

// readStored reads every object of each store from etcd (a consistent
// list, as the watch caches may not have synced yet), by resource.
func readStored(ctx context.Context, stores ...*registry.Store) (map[runtime.GroupVersionResource]storedObjects, error) {
	out := make(map[runtime.GroupVersionResource]storedObjects, len(stores))
	for _, store := range stores {
		gvr := store.Resource.GVR
		if _, ok := out[gvr]; ok {
			continue
		}
		res, err := store.Storage.GetList(ctx, storage.NamespaceRootKey(store.KeyRoot(), ""), storage.ListOptions{Recursive: true})
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", gvr.Resource, err)
		}
		objs := make(storedObjects, len(res.Items))
		for _, obj := range res.Items {
			objs[metaName(obj)] = obj
		}
		out[gvr] = objs
	}
	return out, nil
}

// reconcile makes the stored object named as want carry what want
// carries, as merge says: it creates want when nothing is stored, and
// writes nothing when merge finds nothing missing. merge returns the
// object to store, or nil when existing needs nothing (or is protected).
// stored is what readStored found; the write itself starts from etcd's
// current copy. It returns the revision of the object as it left it.
func reconcile[T runtime.Object](ctx context.Context, store *registry.Store, stored storedObjects, want T, merge func(existing, want T) T) (int64, error) {
	name := metaName(want)
	if obj, ok := stored[name]; ok {
		if reflect.ValueOf(merge(obj.(T), want)).IsNil() {
			return revisionOf(obj), nil // up to date, or protected
		}
	} else {
		// Missing when read: a create, without the read of etcd an
		// update starts with. Another API server on the same etcd may
		// have created it since; then reconcile it as any stored object.
		obj, err := store.Create(ctx, want.DeepCopyObject(), nil, registry.CreateOptions{})
		if err == nil {
			return revisionOf(obj), nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return 0, err
		}
	}
	obj, _, err := store.Update(ctx, "", name, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
		if old == nil {
			return want.DeepCopyObject(), nil
		}
		out := merge(old.DeepCopyObject().(T), want)
		if reflect.ValueOf(out).IsNil() {
			return old, nil
		}
		return out, nil
	}, nil, nil, registry.UpdateOptions{})
	if apierrors.IsInvalid(err) {
		// The roleRef of a binding cannot change: replace the binding.
		if _, _, derr := store.Delete(ctx, "", name, nil, nil); derr != nil && !apierrors.IsNotFound(derr) {
			return 0, derr
		}
		obj, err = store.Create(ctx, want.DeepCopyObject(), nil, registry.CreateOptions{})
	}
	if err != nil {
		return 0, err
	}
	return revisionOf(obj), nil
}

// revisionOf is obj's resourceVersion as the etcd revision it is; 0 when
// it has none.
func revisionOf(obj runtime.Object) int64 {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return 0
	}
	rev, _ := strconv.ParseInt(meta.ResourceVersion, 10, 64)
	return rev
}

func metaName(obj runtime.Object) string {
	switch o := obj.(type) {
	case *rbacv1.ClusterRole:
		return o.Name
	case *rbacv1.ClusterRoleBinding:
		return o.Name
	case *flowcontrolv1.FlowSchema:
		return o.Name
	case *flowcontrolv1.PriorityLevelConfiguration:
		return o.Name
	}
	return ""
}

// protected reports whether an administrator opted the object out of
// reconciliation.
func protected(annotations map[string]string) bool {
	return annotations[rbacv1.AutoUpdateAnnotationKey] == "false"
}

// mergeMeta adds want's labels and annotations that existing lacks, and
// reports whether it added any.
func mergeMeta(existingLabels, existingAnnotations *map[string]string, wantLabels, wantAnnotations map[string]string) bool {
	changed := false
	for _, pair := range []struct {
		existing *map[string]string
		want     map[string]string
	}{{existingLabels, wantLabels}, {existingAnnotations, wantAnnotations}} {
		for k, v := range pair.want {
			if _, ok := (*pair.existing)[k]; ok {
				continue
			}
			if *pair.existing == nil {
				*pair.existing = map[string]string{}
			}
			(*pair.existing)[k] = v
			changed = true
		}
	}
	return changed
}

// reconcileClusterRole adds to existing what it lacks of want: labels,
// annotations, and the rules it does not cover, or for an aggregated
// role the selectors it lacks (its rules are the aggregation
// controller's). It returns nil when existing needs nothing.
//
// Upstream: k8s.io/component-helpers/auth/rbac/reconciliation
// (computeReconciledRole).
func reconcileClusterRole(existing, want *rbacv1.ClusterRole) *rbacv1.ClusterRole {
	if protected(existing.Annotations) {
		return nil
	}
	out := existing.DeepCopy()
	changed := mergeMeta(&out.Labels, &out.Annotations, want.Labels, want.Annotations)
	if want.AggregationRule != nil {
		if out.AggregationRule == nil {
			out.AggregationRule = &rbacv1.AggregationRule{}
		}
		for _, sel := range want.AggregationRule.ClusterRoleSelectors {
			if !slices.ContainsFunc(out.AggregationRule.ClusterRoleSelectors, func(have metav1.LabelSelector) bool {
				return maps.Equal(have.MatchLabels, sel.MatchLabels) && reflect.DeepEqual(have.MatchExpressions, sel.MatchExpressions)
			}) {
				out.AggregationRule.ClusterRoleSelectors = append(out.AggregationRule.ClusterRoleSelectors, sel)
				changed = true
			}
		}
	} else if covered, missing := authzrbac.Covers(out.Rules, want.Rules); !covered {
		out.Rules = append(out.Rules, missing...)
		changed = true
	}
	if !changed {
		return nil
	}
	return out
}

// reconcileClusterRoleBinding adds to existing what it lacks of want:
// labels, annotations and subjects. A different roleRef is written as
// want's, which validation refuses, and reconcile then replaces the
// binding. It returns nil when existing needs nothing.
//
// Upstream: k8s.io/component-helpers/auth/rbac/reconciliation
// (computeReconciledRoleBinding).
func reconcileClusterRoleBinding(existing, want *rbacv1.ClusterRoleBinding) *rbacv1.ClusterRoleBinding {
	if protected(existing.Annotations) {
		return nil
	}
	out := existing.DeepCopy()
	changed := mergeMeta(&out.Labels, &out.Annotations, want.Labels, want.Annotations)
	if out.RoleRef != want.RoleRef {
		out.RoleRef = want.RoleRef
		changed = true
	}
	for _, sub := range want.Subjects {
		if !slices.Contains(out.Subjects, sub) {
			out.Subjects = append(out.Subjects, sub)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return out
}
