package rbac

import (
	"context"
	"errors"
	"fmt"
	"strings"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/request"
)

// Source is what the authorizer reads: the subset of the API server's
// RBAC objects one decision needs. Implementations are safe for
// concurrent use, answer from memory, and share their objects: callers
// must not modify them.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation (RoleGetter,
// RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister), with
// the binding lists narrowed by an index.
type Source interface {
	// GetRole returns the Role namespace/name, or a NotFound error.
	GetRole(ctx context.Context, namespace, name string) (*rbacv1.Role, error)
	// GetClusterRole returns the ClusterRole name, or a NotFound error.
	GetClusterRole(ctx context.Context, name string) (*rbacv1.ClusterRole, error)
	// RoleBindingsByIndex returns the RoleBindings filed under any of keys
	// (SubjectIndexKeys with the binding's namespace), each once.
	RoleBindingsByIndex(ctx context.Context, keys []string) ([]*rbacv1.RoleBinding, error)
	// ClusterRoleBindingsByIndex returns the ClusterRoleBindings filed
	// under any of keys (SubjectIndexKeys with no namespace), each once.
	ClusterRoleBindingsByIndex(ctx context.Context, keys []string) ([]*rbacv1.ClusterRoleBinding, error)
}

// RuleResolver finds the rules that apply to a user in a namespace. It is
// safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation
// (DefaultRuleResolver).
type RuleResolver struct {
	source Source
}

// NewRuleResolver returns a resolver reading source.
func NewRuleResolver(source Source) *RuleResolver { return &RuleResolver{source: source} }

// ruleSource says where a rule came from, for the reason of an allowed
// decision.
type ruleSource struct {
	bindingKind, bindingName, bindingNamespace string
	roleRef                                    rbacv1.RoleRef
	subject                                    *rbacv1.Subject
}

// String words the source as upstream's describers do: `RoleBinding
// "b/ns" of Role "r" to User "alice"`.
func (s *ruleSource) String() string {
	name := fmt.Sprintf("%q", s.bindingName)
	if s.bindingNamespace != "" {
		name = fmt.Sprintf("%q", s.bindingName+"/"+s.bindingNamespace)
	}
	return fmt.Sprintf("%s %s of %s %q to %s", s.bindingKind, name, s.roleRef.Kind, s.roleRef.Name, describeSubject(s.subject, s.bindingNamespace))
}

func describeSubject(s *rbacv1.Subject, bindingNamespace string) string {
	if s.Kind == rbacv1.ServiceAccountKind {
		ns := s.Namespace
		if ns == "" {
			ns = bindingNamespace
		}
		return fmt.Sprintf("%s %q", s.Kind, ns+"/"+s.Name)
	}
	return fmt.Sprintf("%s %q", s.Kind, s.Name)
}

// visitor sees each rule that applies, or an error met on the way; it
// returns false to stop.
type visitor func(src *ruleSource, rule *rbacv1.PolicyRule, err error) bool

// visitRulesFor calls visit with every rule that applies to u in
// namespace: those of u's ClusterRoleBindings, then, when namespace is
// not "", of its RoleBindings there. A binding to a role that does not
// exist is an error passed to visit; the others still apply.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation
// (DefaultRuleResolver.VisitRulesFor).
func (r *RuleResolver) visitRulesFor(ctx context.Context, u *request.User, namespace string, visit visitor) {
	crbs, err := r.source.ClusterRoleBindingsByIndex(ctx, userIndexKeys(u, ""))
	if err != nil && !visit(nil, nil, err) {
		return
	}
	for _, b := range crbs {
		i, ok := appliesTo(u, b.Subjects, "")
		if !ok {
			continue
		}
		rules, err := r.RoleRefRules(ctx, b.RoleRef, "")
		if err != nil {
			if !visit(nil, nil, err) {
				return
			}
			continue
		}
		src := &ruleSource{bindingKind: "ClusterRoleBinding", bindingName: b.Name, roleRef: b.RoleRef, subject: &b.Subjects[i]}
		for j := range rules {
			if !visit(src, &rules[j], nil) {
				return
			}
		}
	}
	if namespace == "" {
		return
	}
	rbs, err := r.source.RoleBindingsByIndex(ctx, userIndexKeys(u, namespace))
	if err != nil && !visit(nil, nil, err) {
		return
	}
	for _, b := range rbs {
		i, ok := appliesTo(u, b.Subjects, namespace)
		if !ok || b.Namespace != namespace {
			continue
		}
		rules, err := r.RoleRefRules(ctx, b.RoleRef, namespace)
		if err != nil {
			if !visit(nil, nil, err) {
				return
			}
			continue
		}
		src := &ruleSource{bindingKind: "RoleBinding", bindingName: b.Name, bindingNamespace: b.Namespace, roleRef: b.RoleRef, subject: &b.Subjects[i]}
		for j := range rules {
			if !visit(src, &rules[j], nil) {
				return
			}
		}
	}
}

// RoleRefRules returns the rules of the role ref names, a Role in
// namespace or a ClusterRole. They are shared: do not modify them.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation
// (DefaultRuleResolver.GetRoleReferenceRules).
func (r *RuleResolver) RoleRefRules(ctx context.Context, ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, error) {
	switch ref.Kind {
	case "Role":
		role, err := r.source.GetRole(ctx, namespace, ref.Name)
		if err != nil {
			return nil, err
		}
		return role.Rules, nil
	case "ClusterRole":
		role, err := r.source.GetClusterRole(ctx, ref.Name)
		if err != nil {
			return nil, err
		}
		return role.Rules, nil
	}
	return nil, fmt.Errorf("unsupported role reference kind: %q", ref.Kind)
}

// RulesFor returns every rule that applies to u in namespace (only the
// cluster-wide ones when namespace is ""). An error says some bindings
// could not be resolved; the rules returned are those that could, so
// the list may be incomplete. The rules are shared: do not modify them.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation
// (DefaultRuleResolver.RulesFor).
func (r *RuleResolver) RulesFor(ctx context.Context, u *request.User, namespace string) ([]rbacv1.PolicyRule, error) {
	var rules []rbacv1.PolicyRule
	var errs []error
	r.visitRulesFor(ctx, u, namespace, func(_ *ruleSource, rule *rbacv1.PolicyRule, err error) bool {
		if rule != nil {
			rules = append(rules, *rule)
		}
		if err != nil {
			errs = append(errs, err)
		}
		return true
	})
	return rules, aggregate(errs)
}

// aggregate joins errs as upstream's utilerrors.NewAggregate words them:
// one error as itself, several as "[a, b]".
func aggregate(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}
