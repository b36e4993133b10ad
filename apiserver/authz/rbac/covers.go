package rbac

import (
	"context"
	"fmt"
	"slices"
	"strings"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/request"
)

// ConfirmNoEscalation returns an error, worded as upstream's, unless u
// holds in namespace every permission rules grant: a user may only give
// away (in a role, or by binding one) what it has itself. Rules it holds
// through bindings that did not resolve are missing; the error then says
// so too.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation
// (ConfirmNoEscalation).
func (r *RuleResolver) ConfirmNoEscalation(ctx context.Context, u *request.User, namespace string, rules []rbacv1.PolicyRule) error {
	owned, resolveErr := r.RulesFor(ctx, u, namespace)
	covered, missing := Covers(owned, rules)
	if covered {
		return nil
	}
	descriptions := make([]string, 0, len(missing))
	for _, m := range compactRules(missing) {
		if d := compactString(m); !slices.Contains(descriptions, d) {
			descriptions = append(descriptions, d)
		}
	}
	slices.Sort(descriptions)
	groups := u.Groups
	if groups == nil {
		groups = []string{}
	}
	msg := fmt.Sprintf("user %q (groups=%q) is attempting to grant RBAC permissions not currently held:\n%s",
		u.Name, groups, strings.Join(descriptions, "\n"))
	if resolveErr != nil {
		msg += fmt.Sprintf("; resolution errors: [%v]", resolveErr)
	}
	return &EscalationError{msg: msg}
}

// EscalationError is the error of ConfirmNoEscalation; the registry
// reports it as 403 Forbidden.
type EscalationError struct{ msg string }

func (e *EscalationError) Error() string { return e.msg }

// Covers reports whether owner rules allow everything servant rules do,
// and if not, which pieces (one verb, group, resource and name each) they
// miss.
//
// Upstream: k8s.io/component-helpers/auth/rbac/validation (Covers).
func Covers(owner, servant []rbacv1.PolicyRule) (bool, []rbacv1.PolicyRule) {
	var missing []rbacv1.PolicyRule
	for _, s := range servant {
		for _, sub := range breakdownRule(s) {
			if !slices.ContainsFunc(owner, func(o rbacv1.PolicyRule) bool { return ruleCovers(o, sub) }) {
				missing = append(missing, sub)
			}
		}
	}
	return len(missing) == 0, missing
}

// breakdownRule splits rule into rules of one verb, group, resource and
// resource name (or one verb and URL).
func breakdownRule(rule rbacv1.PolicyRule) []rbacv1.PolicyRule {
	var subs []rbacv1.PolicyRule
	for _, group := range rule.APIGroups {
		for _, resource := range rule.Resources {
			for _, verb := range rule.Verbs {
				if len(rule.ResourceNames) == 0 {
					subs = append(subs, rbacv1.PolicyRule{APIGroups: []string{group}, Resources: []string{resource}, Verbs: []string{verb}})
					continue
				}
				for _, name := range rule.ResourceNames {
					subs = append(subs, rbacv1.PolicyRule{APIGroups: []string{group}, Resources: []string{resource}, Verbs: []string{verb}, ResourceNames: []string{name}})
				}
			}
		}
	}
	for _, url := range rule.NonResourceURLs {
		for _, verb := range rule.Verbs {
			subs = append(subs, rbacv1.PolicyRule{NonResourceURLs: []string{url}, Verbs: []string{verb}})
		}
	}
	return subs
}

// ruleCovers reports whether owner (any rule) covers sub (a rule of
// breakdownRule).
func ruleCovers(owner, sub rbacv1.PolicyRule) bool {
	verbs := slices.Contains(owner.Verbs, rbacv1.VerbAll) || hasAll(owner.Verbs, sub.Verbs)
	groups := slices.Contains(owner.APIGroups, rbacv1.APIGroupAll) || hasAll(owner.APIGroups, sub.APIGroups)
	names := len(owner.ResourceNames) == 0 || len(sub.ResourceNames) > 0 && hasAll(owner.ResourceNames, sub.ResourceNames)
	return verbs && groups && names && resourcesCoverAll(owner.Resources, sub.Resources) &&
		urlsCoverAll(owner.NonResourceURLs, sub.NonResourceURLs)
}

func hasAll(set, want []string) bool {
	for _, w := range want {
		if !slices.Contains(set, w) {
			return false
		}
	}
	return true
}

func resourcesCoverAll(set, want []string) bool {
	if slices.Contains(set, rbacv1.ResourceAll) || hasAll(set, want) {
		return true
	}
	for _, p := range want {
		if slices.Contains(set, p) {
			continue
		}
		_, sub, ok := strings.Cut(p, "/")
		if !ok || !slices.Contains(set, "*/"+sub) {
			return false
		}
	}
	return true
}

func urlsCoverAll(set, want []string) bool {
	for _, p := range want {
		if !slices.ContainsFunc(set, func(o string) bool {
			return o == p || strings.HasSuffix(o, "*") && strings.HasPrefix(p, strings.TrimRight(o, "*"))
		}) {
			return false
		}
	}
	return true
}

// compactRules merges rules of one group, one resource and at most one
// name into one rule per (group, resource, name) with all their verbs,
// so a missing permission is listed once.
//
// Upstream: k8s.io/kubernetes/pkg/registry/rbac/validation (CompactRules).
func compactRules(rules []rbacv1.PolicyRule) []rbacv1.PolicyRule {
	type simple struct{ group, resource, name string }
	var out []rbacv1.PolicyRule
	merged := map[simple]int{}
	for _, r := range rules {
		if len(r.NonResourceURLs) > 0 || len(r.APIGroups) != 1 || len(r.Resources) != 1 || len(r.ResourceNames) > 1 {
			out = append(out, r)
			continue
		}
		key := simple{group: r.APIGroups[0], resource: r.Resources[0]}
		if len(r.ResourceNames) == 1 {
			key.name = r.ResourceNames[0]
		}
		if i, ok := merged[key]; ok {
			for _, v := range r.Verbs {
				if !slices.Contains(out[i].Verbs, v) {
					out[i].Verbs = append(out[i].Verbs, v)
				}
			}
			continue
		}
		merged[key] = len(out)
		r.Verbs = slices.Clone(r.Verbs)
		out = append(out, r)
	}
	return out
}

// compactString words a rule as upstream's escalation message does:
// `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/v1 (CompactString).
func compactString(r rbacv1.PolicyRule) string {
	var parts []string
	add := func(name string, v []string) {
		if len(v) > 0 {
			parts = append(parts, fmt.Sprintf("%s:%q", name, v))
		}
	}
	add("APIGroups", r.APIGroups)
	add("Resources", r.Resources)
	add("NonResourceURLs", r.NonResourceURLs)
	add("ResourceNames", r.ResourceNames)
	add("Verbs", r.Verbs)
	return "{" + strings.Join(parts, ", ") + "}"
}
