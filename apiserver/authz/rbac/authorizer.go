package rbac

import (
	"context"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/authz"
)

// Authorizer is the RBAC authorizer. It allows what some rule that
// applies to the user allows, and otherwise has no opinion (RBAC never
// denies outright). It is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac
// (RBACAuthorizer).
type Authorizer struct {
	resolver *RuleResolver
}

var _ authz.Authorizer = (*Authorizer)(nil)

// New returns an authorizer reading roles and bindings from source.
func New(source Source) *Authorizer {
	return &Authorizer{resolver: NewRuleResolver(source)}
}

// Resolver returns the authorizer's rule resolver, which the RBAC
// registry checks escalation with and SelfSubjectRulesReview lists rules
// with.
func (a *Authorizer) Resolver() *RuleResolver { return a.resolver }

// Authorize implements authz.Authorizer. An allowed decision's reason
// names the binding that allowed it; a denied one's lists the bindings
// that could not be resolved, "RBAC: ..." as upstream, or is empty. It
// never returns an error: a broken binding only loses its own rules.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac
// (RBACAuthorizer.Authorize).
func (a *Authorizer) Authorize(ctx context.Context, attrs authz.Attributes) (authz.Decision, string, error) {
	if attrs.User == nil || attrs.RequestInfo == nil {
		return authz.DecisionNoOpinion, "", nil
	}
	var (
		allowedBy *ruleSource
		errs      []error
	)
	a.resolver.visitRulesFor(ctx, attrs.User, attrs.Namespace, func(src *ruleSource, rule *rbacv1.PolicyRule, err error) bool {
		if rule != nil && RuleAllows(attrs, rule) {
			allowedBy = src
			return false
		}
		if err != nil {
			errs = append(errs, err)
		}
		return true
	})
	if allowedBy != nil {
		return authz.DecisionAllow, "RBAC: allowed by " + allowedBy.String(), nil
	}
	if err := aggregate(errs); err != nil {
		return authz.DecisionNoOpinion, "RBAC: " + err.Error(), nil
	}
	return authz.DecisionNoOpinion, "", nil
}
