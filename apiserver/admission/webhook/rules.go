package webhook

import (
	"slices"
	"strings"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// namespaceResource is the resource of namespace objects, which rules count
// as cluster-scoped although their requests carry a namespace (their own
// name).
var namespaceResource = runtime.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// ruleMatches reports whether r covers the request a, seen as a request on
// gvr: a's own resource, or under matchPolicy Equivalent another version
// of it. Every part must match: scope, operation, group, version and
// resource with subresource.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules (Matcher.Matches).
func ruleMatches(r *admissionregistrationv1.RuleWithOperations, a *admission.Attributes, gvr runtime.GroupVersionResource) bool {
	return scopeMatches(r.Scope, a, gvr) &&
		operationMatches(r.Operations, a.Operation) &&
		exactOrWildcard(r.APIGroups, gvr.Group) &&
		exactOrWildcard(r.APIVersions, gvr.Version) &&
		resourceMatches(r.Resources, gvr.Resource, a.Subresource)
}

func exactOrWildcard(items []string, requested string) bool {
	return slices.Contains(items, "*") || slices.Contains(items, requested)
}

// scopeMatches checks a rule's scope. A request without a namespace is on
// a cluster-scoped resource, except for namespaces themselves, whose
// requests carry their own name as namespace and count as cluster-scoped.
func scopeMatches(scope *admissionregistrationv1.ScopeType, a *admission.Attributes, gvr runtime.GroupVersionResource) bool {
	if scope == nil {
		return true
	}
	switch *scope {
	case admissionregistrationv1.AllScopes:
		return true
	case admissionregistrationv1.NamespacedScope:
		return gvr != namespaceResource && a.Namespace != ""
	case admissionregistrationv1.ClusterScope:
		return gvr == namespaceResource || a.Namespace == ""
	}
	return false
}

func operationMatches(ops []admissionregistrationv1.OperationType, op admission.Operation) bool {
	for _, o := range ops {
		if o == admissionregistrationv1.OperationAll || string(o) == string(op) {
			return true
		}
	}
	return false
}

// resourceMatches checks the request's resource and subresource against
// a rule's resources: "pods" is the pods themselves, "pods/status" one
// subresource, "pods/*" pods with every subresource, "*" every resource
// without subresources, "*/status" one subresource of every resource, "*/*"
// everything.
func resourceMatches(resources []string, resource, subresource string) bool {
	for _, rs := range resources {
		res, sub, _ := strings.Cut(rs, "/")
		if (res == "*" || res == resource) && (sub == "*" || sub == subresource) {
			return true
		}
	}
	return false
}

// exempt reports requests on the webhook configurations themselves, which
// no webhook is ever called for: a webhook that rejects everything could
// otherwise never be removed.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules
// (IsExemptAdmissionConfigurationResource).
func exempt(a *admission.Attributes) bool {
	return a.Kind.Group == admissionregistrationv1.GroupName &&
		(a.Kind.Kind == "MutatingWebhookConfiguration" || a.Kind.Kind == "ValidatingWebhookConfiguration")
}
