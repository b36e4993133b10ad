package rbac

import (
	"slices"
	"strings"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/authz"
)

// RuleAllows reports whether rule allows the request a describes: for a
// resource request its verb, API group, resource (as "resource" or
// "resource/subresource") and name; for any other its verb and path.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac (RuleAllows).
func RuleAllows(a authz.Attributes, rule *rbacv1.PolicyRule) bool {
	if a.RequestInfo == nil {
		return false
	}
	if a.IsResourceRequest {
		combined := a.Resource
		if a.Subresource != "" {
			combined = a.Resource + "/" + a.Subresource
		}
		return VerbMatches(rule, a.Verb) &&
			APIGroupMatches(rule, a.APIGroup) &&
			ResourceMatches(rule, combined, a.Subresource) &&
			ResourceNameMatches(rule, a.Name)
	}
	return VerbMatches(rule, a.Verb) && NonResourceURLMatches(rule, a.Path)
}

// VerbMatches reports whether rule lists verb or "*".
func VerbMatches(rule *rbacv1.PolicyRule, verb string) bool {
	return slices.ContainsFunc(rule.Verbs, func(v string) bool { return v == rbacv1.VerbAll || v == verb })
}

// APIGroupMatches reports whether rule lists group or "*".
func APIGroupMatches(rule *rbacv1.PolicyRule, group string) bool {
	return slices.ContainsFunc(rule.APIGroups, func(g string) bool { return g == rbacv1.APIGroupAll || g == group })
}

// ResourceMatches reports whether rule lists "*", the combined
// "resource/subresource" (or plain resource), or, for a subresource,
// "*/subresource".
func ResourceMatches(rule *rbacv1.PolicyRule, combined, subresource string) bool {
	for _, r := range rule.Resources {
		switch {
		case r == rbacv1.ResourceAll, r == combined:
			return true
		case subresource != "" && len(r) == len(subresource)+2 &&
			strings.HasPrefix(r, "*/") && strings.HasSuffix(r, subresource):
			return true
		}
	}
	return false
}

// ResourceNameMatches reports whether rule names no object (any name
// matches) or names name.
func ResourceNameMatches(rule *rbacv1.PolicyRule, name string) bool {
	return len(rule.ResourceNames) == 0 || slices.Contains(rule.ResourceNames, name)
}

// NonResourceURLMatches reports whether rule lists "*", path, or a prefix
// of path followed by "*".
func NonResourceURLMatches(rule *rbacv1.PolicyRule, path string) bool {
	for _, u := range rule.NonResourceURLs {
		switch {
		case u == rbacv1.NonResourceAll, u == path:
			return true
		case strings.HasSuffix(u, "*") && strings.HasPrefix(path, strings.TrimRight(u, "*")):
			return true
		}
	}
	return false
}
