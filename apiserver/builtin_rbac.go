package apiserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authz"
	authznode "github.com/minicp/minicp/apiserver/authz/node"
	authzrbac "github.com/minicp/minicp/apiserver/authz/rbac"
	"github.com/minicp/minicp/apiserver/registry"
	rbacregistry "github.com/minicp/minicp/apiserver/registry/rbac"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/watchcache"
)

var (
	gvrRoles               = rbacv1.SchemeGroupVersion.WithResource("roles")
	gvrRoleBindings        = rbacv1.SchemeGroupVersion.WithResource("rolebindings")
	gvrClusterRoles        = rbacv1.SchemeGroupVersion.WithResource("clusterroles")
	gvrClusterRoleBindings = rbacv1.SchemeGroupVersion.WithResource("clusterrolebindings")
)

// subjectsIndex is the watch cache index of role and cluster role
// bindings by subject (authzrbac.SubjectIndexKeys): the RBAC authorizer
// looks up the bindings of a user and its groups, never all of them.
const subjectsIndex = "rbac.subjects"

// installRBACResources installs the four rbac.authorization.k8s.io
// resources, with the ResourceInfo the Scheme has for them, and the
// access review resources that ask the authorizer questions.
func (s *Server) installRBACResources() error {
	esc := rbacregistry.Escalation{Authorizer: s.authorizer, Resolver: s.rbac.Resolver()}
	resources := []struct {
		gvr runtime.GroupVersionResource
		r   Resource
	}{
		{gvrRoles, Resource{Strategy: rbacregistry.RoleStrategy{Escalation: esc}, Tables: rbacregistry.RoleTable}},
		{gvrClusterRoles, Resource{Strategy: rbacregistry.ClusterRoleStrategy{Escalation: esc}, Tables: rbacregistry.RoleTable}},
		{gvrRoleBindings, Resource{
			Strategy: rbacregistry.RoleBindingStrategy{Escalation: esc}, Tables: rbacregistry.BindingTable,
			Indexers: map[string]watchcache.IndexFunc{subjectsIndex: func(obj runtime.Object) ([]string, error) {
				b := obj.(*rbacv1.RoleBinding)
				return authzrbac.SubjectIndexKeys(b.Namespace, b.Subjects), nil
			}},
		}},
		{gvrClusterRoleBindings, Resource{
			Strategy: rbacregistry.ClusterRoleBindingStrategy{Escalation: esc}, Tables: rbacregistry.BindingTable,
			Indexers: map[string]watchcache.IndexFunc{subjectsIndex: func(obj runtime.Object) ([]string, error) {
				return authzrbac.SubjectIndexKeys("", obj.(*rbacv1.ClusterRoleBinding).Subjects), nil
			}},
		}},
	}
	for _, res := range resources {
		info, ok := s.scheme.Resource(res.gvr)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", res.gvr)
		}
		res.r.Info = info
		if err := s.InstallResource(res.r); err != nil {
			return err
		}
	}
	return s.installReviewResources()
}

// rbacSource is authzrbac.Source over the server's own watch caches, as
// kube-apiserver's RBAC authorizer reads its informers: a role is a key
// lookup and a user's bindings an index lookup. A cache that is not ready
// (starting, or relisting after its etcd watch broke) is bypassed for
// etcd, so authorization never waits on a relist's backoff. Objects are
// shared.
type rbacSource struct{ s *Server }

var _ authzrbac.Source = rbacSource{}

// GetRole implements authzrbac.Source.
func (r rbacSource) GetRole(ctx context.Context, namespace, name string) (*rbacv1.Role, error) {
	obj, err := r.get(ctx, gvrRoles, namespace, name)
	if err != nil {
		return nil, err
	}
	return obj.(*rbacv1.Role), nil
}

// GetClusterRole implements authzrbac.Source.
func (r rbacSource) GetClusterRole(ctx context.Context, name string) (*rbacv1.ClusterRole, error) {
	obj, err := r.get(ctx, gvrClusterRoles, "", name)
	if err != nil {
		return nil, err
	}
	return obj.(*rbacv1.ClusterRole), nil
}

// RoleBindingsByIndex implements authzrbac.Source.
func (r rbacSource) RoleBindingsByIndex(ctx context.Context, keys []string) ([]*rbacv1.RoleBinding, error) {
	return byIndex[*rbacv1.RoleBinding](ctx, r.s, gvrRoleBindings, subjectsIndex, keys, func(b *rbacv1.RoleBinding) []string {
		return authzrbac.SubjectIndexKeys(b.Namespace, b.Subjects)
	})
}

// ClusterRoleBindingsByIndex implements authzrbac.Source.
func (r rbacSource) ClusterRoleBindingsByIndex(ctx context.Context, keys []string) ([]*rbacv1.ClusterRoleBinding, error) {
	return byIndex[*rbacv1.ClusterRoleBinding](ctx, r.s, gvrClusterRoleBindings, subjectsIndex, keys, func(b *rbacv1.ClusterRoleBinding) []string {
		return authzrbac.SubjectIndexKeys("", b.Subjects)
	})
}

// get reads one role, answering a missing one with a NotFound worded as
// upstream's listers word it (`clusterrole.rbac.authorization.k8s.io
// "x" not found`): it ends up in a denial's reason.
func (r rbacSource) get(ctx context.Context, gvr runtime.GroupVersionResource, ns, name string) (runtime.Object, error) {
	store, ok := r.s.Store(gvr)
	if !ok {
		return nil, fmt.Errorf("%s are not served", gvr.GroupResource())
	}
	obj, err := store.Storage.Get(ctx, store.Key(ns, name), storage.GetOptions{ResourceVersion: cachedRV(store)})
	if errors.Is(err, storage.ErrNotFound) {
		singular := runtime.GroupResource{Group: gvr.Group, Resource: gvr.Resource[:len(gvr.Resource)-1]}
		return nil, apierrors.NewNotFound(singular, name)
	}
	return obj, err
}

// byIndex returns the objects of gvr filed under any of keys in the
// watch cache's index, each once. Without a ready watch cache it lists
// etcd and filters with keysOf, the index function.
func byIndex[T runtime.Object](ctx context.Context, s *Server, gvr runtime.GroupVersionResource, index string, keys []string, keysOf func(T) []string) ([]T, error) {
	store, ok := s.Store(gvr)
	if !ok {
		return nil, fmt.Errorf("%s are not served", gvr.GroupResource())
	}
	var out []T
	seen := map[runtime.Object]bool{}
	if cacher, ok := store.Storage.(*watchcache.Cacher); ok && cachedRV(store) == "0" {
		for _, key := range keys {
			objs, err := cacher.ByIndex(ctx, index, key)
			if err != nil {
				return nil, err
			}
			for _, obj := range objs {
				if !seen[obj] {
					seen[obj] = true
					out = append(out, obj.(T))
				}
			}
		}
		return out, nil
	}
	all, err := listCached[T](ctx, s, gvr)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	for _, obj := range all {
		for _, k := range keysOf(obj) {
			if want[k] {
				out = append(out, obj)
				break
			}
		}
	}
	return out, nil
}

// storeOf returns the registry store of an installed RBAC resource.
func (s *Server) storeOf(gvr runtime.GroupVersionResource) (*registry.Store, error) {
	store, ok := s.Store(gvr)
	if !ok {
		return nil, fmt.Errorf("%s are not served", gvr.GroupResource())
	}
	return store, nil
}

// setAuthorizer sets the server's authorizer from opts, and the RBAC
// authorizer the RBAC registry checks escalation with.
func (s *Server) setAuthorizer(opts Options) error {
	s.rbac = authzrbac.New(rbacSource{s})
	s.authorizer = opts.Authorizer
	if s.authorizer != nil {
		return nil // a custom authorizer: no known mode
	}
	mode := opts.AuthorizationMode
	if mode == "" {
		mode = authz.ModeAllowAuthenticated
	}
	// Upstream: kube-apiserver's authorizer chain, whose first member
	// allows system:masters whatever the modes say.
	chain := authz.Union{authz.PrivilegedGroups(request.SystemPrivilegedGroup)}
	for m := range strings.SplitSeq(mode, ",") {
		m = strings.TrimSpace(m)
		if slices.Contains(s.authorizationModes, m) {
			return fmt.Errorf("apiserver: AuthorizationMode %q names %q twice", mode, m)
		}
		switch m {
		case authz.ModeAllowAuthenticated:
			chain = append(chain, authz.AllowAuthenticated)
		case authz.ModeAlwaysAllow:
			chain = append(chain, authz.AlwaysAllow)
		case authz.ModeNode:
			chain = append(chain, authznode.New(podGraph{s}))
		case authz.ModeRBAC:
			chain = append(chain, s.rbac)
		default:
			return fmt.Errorf("apiserver: unknown authorization mode %q in %q (want a list of %q, %q, %q, %q)",
				m, mode, authz.ModeNode, authz.ModeRBAC, authz.ModeAlwaysAllow, authz.ModeAllowAuthenticated)
		}
		s.authorizationModes = append(s.authorizationModes, m)
	}
	s.authorizer = chain
	return nil
}

// authorizationModeEnabled reports whether mode is one of the server's
// authorization modes.
func (s *Server) authorizationModeEnabled(mode string) bool {
	return slices.Contains(s.authorizationModes, mode)
}
