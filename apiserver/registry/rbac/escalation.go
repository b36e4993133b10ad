package rbac

import (
	"context"
	"errors"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authz"
	authzrbac "github.com/minicp/minicp/apiserver/authz/rbac"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
)

// Escalation is what the strategies check writes with: the server's
// authorizer, asked about the escalate and bind verbs, and the RBAC rule
// resolver, which says what the writer holds. Both are required.
type Escalation struct {
	Authorizer authz.Authorizer
	Resolver   *authzrbac.RuleResolver
}

var (
	rolesResource        = rbacv1.SchemeGroupVersion.WithResource("roles").GroupResource()
	clusterRolesResource = rbacv1.SchemeGroupVersion.WithResource("clusterroles").GroupResource()
)

// escalationAllowed reports whether the writer skips every check: a
// member of system:masters, as the API server's own loopback client is.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac (EscalationAllowed).
func escalationAllowed(ctx context.Context) bool {
	u, ok := request.UserFrom(ctx)
	return ok && u != nil && slices.Contains(u.Groups, request.SystemPrivilegedGroup)
}

// confirmRoleWrite allows writing a role (Role or ClusterRole, named by
// gr and name, in namespace) with rules when the writer may escalate it
// or holds the rules.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/role/policybased (Storage.Create).
func (e Escalation) confirmRoleWrite(ctx context.Context, gr runtime.GroupResource, namespace, name string, rules []rbacv1.PolicyRule) error {
	if escalationAllowed(ctx) {
		return nil
	}
	u, ok := request.UserFrom(ctx)
	if !ok || u == nil {
		return apierrors.NewForbidden(gr, name, errors.New("no user on context"))
	}
	if e.authorized(ctx, u, authz.Attributes{User: u, RequestInfo: &request.RequestInfo{
		IsResourceRequest: true, Verb: "escalate", APIGroup: gr.Group, APIVersion: "*",
		Resource: gr.Resource, Name: name, Namespace: namespace,
	}}) {
		return nil
	}
	if err := e.Resolver.ConfirmNoEscalation(ctx, u, namespace, rules); err != nil {
		return apierrors.NewForbidden(gr, name, err)
	}
	return nil
}

// confirmBinding allows writing a binding (named by gr and name, in
// namespace, "" for a ClusterRoleBinding) of ref when the writer may
// bind the role or holds its rules. A role that does not exist cannot be
// held: its NotFound is the answer.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/rolebinding/policybased
// (Storage.Create) and k8s.io/kubernetes/pkg/registry/rbac (BindingAuthorized).
func (e Escalation) confirmBinding(ctx context.Context, gr runtime.GroupResource, namespace, name string, ref rbacv1.RoleRef) error {
	if escalationAllowed(ctx) {
		return nil
	}
	u, ok := request.UserFrom(ctx)
	if !ok || u == nil {
		return apierrors.NewForbidden(gr, name, errors.New("no user on context"))
	}
	info := &request.RequestInfo{IsResourceRequest: true, Verb: "bind", APIGroup: ref.APIGroup, APIVersion: "*",
		Name: ref.Name, Namespace: namespace}
	switch ref.Kind {
	case "ClusterRole":
		info.Resource = "clusterroles"
	case "Role":
		info.Resource = "roles"
	}
	if info.Resource != "" && e.authorized(ctx, u, authz.Attributes{User: u, RequestInfo: info}) {
		return nil
	}
	rules, err := e.Resolver.RoleRefRules(ctx, ref, namespace)
	if apierrors.IsNotFound(err) {
		// Upstream reads the role from its registry here, whose NotFound
		// names the resource in the plural.
		return apierrors.NewNotFound(rbacv1.SchemeGroupVersion.WithResource(info.Resource).GroupResource(), ref.Name)
	}
	if err != nil {
		return err
	}
	if err := e.Resolver.ConfirmNoEscalation(ctx, u, namespace, rules); err != nil {
		return apierrors.NewForbidden(gr, name, err)
	}
	return nil
}

func (e Escalation) authorized(ctx context.Context, u *request.User, a authz.Attributes) bool {
	if e.Authorizer == nil {
		return false
	}
	d, _, err := e.Authorizer.Authorize(ctx, a)
	return err == nil && d == authz.DecisionAllow
}

// noFinish is the FinishFunc of the checks: they allocate nothing.
func noFinish(context.Context, bool) {}

var _ registry.FinishFunc = noFinish
