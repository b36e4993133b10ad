package flowcontrol

import (
	"slices"
	"strings"

	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	"github.com/minicp/minicp/apiserver/request"
)

// RequestDigest is what classification reads of a request: who sent it
// and what it asks for.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (RequestDigest).
type RequestDigest struct {
	RequestInfo *request.RequestInfo
	User        *request.User
}

// matchesFlowSchema reports whether any rule of fs matches d.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (matchesFlowSchema).
func matchesFlowSchema(d RequestDigest, fs *flowcontrolv1.FlowSchema) bool {
	for i := range fs.Spec.Rules {
		if matchesPolicyRule(d, &fs.Spec.Rules[i]) {
			return true
		}
	}
	return false
}

func matchesPolicyRule(d RequestDigest, rule *flowcontrolv1.PolicyRulesWithSubjects) bool {
	if !slices.ContainsFunc(rule.Subjects, func(s flowcontrolv1.Subject) bool { return matchesSubject(d.User, s) }) {
		return false
	}
	ri := d.RequestInfo
	if ri.IsResourceRequest {
		for i := range rule.ResourceRules {
			if matchesResourceRule(ri, &rule.ResourceRules[i]) {
				return true
			}
		}
		return false
	}
	for i := range rule.NonResourceRules {
		r := &rule.NonResourceRules[i]
		if matchesWildcard(r.Verbs, ri.Verb) && matchesNonResourceURL(r.NonResourceURLs, ri.Path) {
			return true
		}
	}
	return false
}

func matchesSubject(u *request.User, s flowcontrolv1.Subject) bool {
	switch s.Kind {
	case flowcontrolv1.SubjectKindUser:
		return s.User != nil && (s.User.Name == flowcontrolv1.NameAll || s.User.Name == u.Name)
	case flowcontrolv1.SubjectKindGroup:
		return s.Group != nil && (s.Group.Name == flowcontrolv1.NameAll || slices.Contains(u.Groups, s.Group.Name))
	case flowcontrolv1.SubjectKindServiceAccount:
		if s.ServiceAccount == nil {
			return false
		}
		// system:serviceaccount:<namespace>:<name>
		rest, ok := strings.CutPrefix(u.Name, request.ServiceAccountUsernamePrefix)
		if !ok {
			return false
		}
		ns, name, ok := strings.Cut(rest, ":")
		return ok && ns == s.ServiceAccount.Namespace && (s.ServiceAccount.Name == flowcontrolv1.NameAll || name == s.ServiceAccount.Name)
	}
	return false
}

func matchesResourceRule(ri *request.RequestInfo, r *flowcontrolv1.ResourcePolicyRule) bool {
	if !matchesWildcard(r.Verbs, ri.Verb) || !matchesWildcard(r.APIGroups, ri.APIGroup) || !matchesResource(r.Resources, ri) {
		return false
	}
	if ri.Namespace == "" {
		return r.ClusterScope
	}
	return matchesWildcard(r.Namespaces, ri.Namespace)
}

// matchesWildcard reports whether list holds v or "*" (every wildcard of
// the API is "*").
func matchesWildcard(list []string, v string) bool {
	for _, s := range list {
		if s == "*" || s == v {
			return true
		}
	}
	return false
}

// matchesResource matches "resource" or "resource/subresource", without
// building the combined string on every request.
func matchesResource(list []string, ri *request.RequestInfo) bool {
	for _, s := range list {
		if s == flowcontrolv1.ResourceAll {
			return true
		}
		if ri.Subresource == "" {
			if s == ri.Resource {
				return true
			}
			continue
		}
		if len(s) == len(ri.Resource)+1+len(ri.Subresource) && strings.HasPrefix(s, ri.Resource) &&
			s[len(ri.Resource)] == '/' && strings.HasSuffix(s, ri.Subresource) {
			return true
		}
	}
	return false
}

// matchesNonResourceURL matches a path exactly, or below a rule ending in
// "/*" (which matches its parent too, as upstream's does: "/healthz/*"
// matches "/healthz").
func matchesNonResourceURL(list []string, path string) bool {
	for _, rule := range list {
		if rule == flowcontrolv1.NonResourceAll || rule == path {
			return true
		}
		if prefix, ok := strings.CutSuffix(rule, "/*"); ok && (path == prefix || strings.HasPrefix(path, prefix+"/")) {
			return true
		}
	}
	return false
}
