package validation

import (
	"fmt"
	"slices"
	"strings"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
)

// validateRuleWithOperations checks a rule's operations (known, "*" alone)
// and the rule.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validateRuleWithOperations).
func validateRuleWithOperations(r *admissionregistrationv1.RuleWithOperations, p path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(r.Operations) == 0 {
		errs = append(errs, apierrors.Required(p.child("operations").String(), ""))
	}
	if len(r.Operations) > 1 && slices.Contains(r.Operations, admissionregistrationv1.OperationAll) {
		errs = append(errs, apierrors.Invalid(p.child("operations").String(), r.Operations, "if '*' is present, must not specify other operations"))
	}
	for i, op := range r.Operations {
		if !slices.Contains(supportedOperations, string(op)) {
			errs = append(errs, apierrors.NotSupported(p.child("operations").index(i).String(), op, supportedOperations))
		}
	}
	return append(errs, validateRule(&r.Rule, p)...)
}

// validateRule checks a rule's groups and versions (present, "*" alone),
// resources and scope.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validateRule).
func validateRule(r *admissionregistrationv1.Rule, p path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(r.APIGroups) == 0 {
		errs = append(errs, apierrors.Required(p.child("apiGroups").String(), ""))
	}
	if len(r.APIGroups) > 1 && slices.Contains(r.APIGroups, "*") {
		errs = append(errs, apierrors.Invalid(p.child("apiGroups").String(), r.APIGroups, "if '*' is present, must not specify other API groups"))
	}
	// A group may be empty (the core group); a version may not.
	if len(r.APIVersions) == 0 {
		errs = append(errs, apierrors.Required(p.child("apiVersions").String(), ""))
	}
	if len(r.APIVersions) > 1 && slices.Contains(r.APIVersions, "*") {
		errs = append(errs, apierrors.Invalid(p.child("apiVersions").String(), r.APIVersions, "if '*' is present, must not specify other API versions"))
	}
	for i, v := range r.APIVersions {
		if v == "" {
			errs = append(errs, apierrors.Required(p.child("apiVersions").index(i).String(), ""))
		}
	}
	errs = append(errs, validateRuleResources(r.Resources, p.child("resources"))...)
	if r.Scope != nil && !slices.Contains(supportedScopes, string(*r.Scope)) {
		errs = append(errs, apierrors.NotSupported(p.child("scope").String(), *r.Scope, supportedScopes))
	}
	return errs
}

// validateRuleResources checks a rule's resources: none empty, and no entry
// that a wildcard entry already covers ("pods/status" beside "pods/*" or
// "*/status", anything beside "*/*", a plain resource beside "*").
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validateResources).
func validateRuleResources(resources []string, p path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(resources) == 0 {
		errs = append(errs, apierrors.Required(p.String(), ""))
	}
	resourcesWithWildcardSubresources := map[string]bool{} // "x/*"
	subresourcesWithWildcardResource := map[string]bool{}  // "*/x"
	hasDoubleWildcard, hasSingleWildcard, hasResourceWithoutSubresource := false, false, false
	for i, resSub := range resources {
		if resSub == "" {
			errs = append(errs, apierrors.Required(p.index(i).String(), ""))
			continue
		}
		hasDoubleWildcard = hasDoubleWildcard || resSub == "*/*"
		hasSingleWildcard = hasSingleWildcard || resSub == "*"
		res, sub, ok := strings.Cut(resSub, "/")
		if !ok {
			// Upstream assigns rather than ORs, so only the last plain
			// entry counts: ["pods", "*"] is accepted, ["*", "pods"] not.
			hasResourceWithoutSubresource = resSub != "*"
			continue
		}
		if resourcesWithWildcardSubresources[res] {
			errs = append(errs, apierrors.Invalid(p.index(i).String(), resSub, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, resSub)))
		}
		if subresourcesWithWildcardResource[sub] {
			errs = append(errs, apierrors.Invalid(p.index(i).String(), resSub, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, resSub)))
		}
		if sub == "*" {
			resourcesWithWildcardSubresources[res] = true
		}
		if res == "*" {
			subresourcesWithWildcardResource[sub] = true
		}
	}
	if len(resources) > 1 && hasDoubleWildcard {
		errs = append(errs, apierrors.Invalid(p.String(), resources, "if '*/*' is present, must not specify other resources"))
	}
	if hasSingleWildcard && hasResourceWithoutSubresource {
		errs = append(errs, apierrors.Invalid(p.String(), resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return errs
}
