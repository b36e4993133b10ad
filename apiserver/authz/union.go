package authz

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// Union asks each authorizer in order; the first that allows or denies
// decides. When none does, the decision is NoOpinion with every reason
// given, one per line, and the errors met.
//
// Upstream: k8s.io/apiserver/pkg/authorization/union.
type Union []Authorizer

// Authorize implements Authorizer.
func (u Union) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	var (
		errs    []error
		reasons []string
	)
	for _, authorizer := range u {
		d, reason, err := authorizer.Authorize(ctx, a)
		if err != nil {
			errs = append(errs, err)
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
		if d == DecisionAllow || d == DecisionDeny {
			return d, reason, err
		}
	}
	return DecisionNoOpinion, strings.Join(reasons, "\n"), errors.Join(errs...)
}

// PrivilegedGroups allows every request of a user in one of groups and
// has no opinion on any other: how system:masters may do anything, even
// with no RBAC binding at all.
//
// Upstream: k8s.io/apiserver/pkg/authorization/authorizerfactory
// (NewPrivilegedGroups).
func PrivilegedGroups(groups ...string) Authorizer {
	return AuthorizerFunc(func(_ context.Context, a Attributes) (Decision, string, error) {
		if a.User != nil && slices.ContainsFunc(a.User.Groups, func(g string) bool { return slices.Contains(groups, g) }) {
			return DecisionAllow, "", nil
		}
		return DecisionNoOpinion, "", nil
	})
}

// Authorization modes, as kube-apiserver's --authorization-mode names
// them. A server's mode is a comma-separated list of them ("Node,RBAC"),
// asked in order after system:masters, which may always do anything.
const (
	// ModeAllowAuthenticated is AllowAuthenticated.
	ModeAllowAuthenticated = "AllowAuthenticated"
	// ModeAlwaysAllow allows every request, anonymous ones included.
	ModeAlwaysAllow = "AlwaysAllow"
	// ModeNode is the Node authorizer: kubelets, each limited to its own
	// node's objects.
	ModeNode = "Node"
	// ModeRBAC is the RBAC authorizer.
	ModeRBAC = "RBAC"
)

// AlwaysAllow allows every request.
//
// Upstream: k8s.io/apiserver/pkg/authorization/authorizerfactory
// (NewAlwaysAllowAuthorizer).
var AlwaysAllow = AuthorizerFunc(func(context.Context, Attributes) (Decision, string, error) {
	return DecisionAllow, "", nil
})
