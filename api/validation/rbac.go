package validation

import (
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
)

// The RBAC kinds' names only need to be usable as a path segment
// ("system:controller:job" is a valid role name), as upstream's
// ValidateRBACName says.

// ValidateRole checks a Role: a path-segment name in a namespace and
// rules that are resource rules.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/validation (ValidateRole).
func ValidateRole(role *rbacv1.Role) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&role.ObjectMeta, true, NameIsPathSegment, "metadata")
	for i, rule := range role.Rules {
		errs = append(errs, ValidatePolicyRule(rule, true, fmt.Sprintf("rules[%d]", i))...)
	}
	return errs
}

// ValidateRoleUpdate checks an update of a Role.
func ValidateRoleUpdate(role, old *rbacv1.Role) apierrors.FieldErrors {
	errs := ValidateRole(role)
	return append(errs, ValidateObjectMetaUpdate(&role.ObjectMeta, &old.ObjectMeta, "metadata")...)
}

// ValidateClusterRole checks a ClusterRole: a cluster-scoped path-segment
// name, valid rules (non-resource URLs allowed) and, when it aggregates,
// at least one valid selector.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/validation (ValidateClusterRole).
func ValidateClusterRole(role *rbacv1.ClusterRole) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&role.ObjectMeta, false, NameIsPathSegment, "metadata")
	for i, rule := range role.Rules {
		errs = append(errs, ValidatePolicyRule(rule, false, fmt.Sprintf("rules[%d]", i))...)
	}
	if role.AggregationRule != nil {
		if len(role.AggregationRule.ClusterRoleSelectors) == 0 {
			errs = append(errs, apierrors.Required("aggregationRule.clusterRoleSelectors",
				"at least one clusterRoleSelector required if aggregationRule is non-nil"))
		}
		for i := range role.AggregationRule.ClusterRoleSelectors {
			errs = append(errs, ValidateLabelSelector(&role.AggregationRule.ClusterRoleSelectors[i],
				fmt.Sprintf("aggregationRule.clusterRoleSelectors[%d]", i))...)
		}
	}
	return errs
}

// ValidateClusterRoleUpdate checks an update of a ClusterRole.
func ValidateClusterRoleUpdate(role, old *rbacv1.ClusterRole) apierrors.FieldErrors {
	errs := ValidateClusterRole(role)
	return append(errs, ValidateObjectMetaUpdate(&role.ObjectMeta, &old.ObjectMeta, "metadata")...)
}

// ValidatePolicyRule checks one rule: it has verbs, and is either a
// resource rule (with API groups and resources) or a non-resource rule
// (only in a ClusterRole), never both.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/validation (ValidatePolicyRule).
func ValidatePolicyRule(rule rbacv1.PolicyRule, namespaced bool, fldPath string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(rule.Verbs) == 0 {
		errs = append(errs, apierrors.Required(fldPath+".verbs", "verbs must contain at least one value"))
	}
	if len(rule.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, apierrors.Invalid(fldPath+".nonResourceURLs", rule.NonResourceURLs,
				"namespaced rules cannot apply to non-resource URLs"))
		}
		if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
			errs = append(errs, apierrors.Invalid(fldPath+".nonResourceURLs", rule.NonResourceURLs,
				"rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(rule.APIGroups) == 0 {
		errs = append(errs, apierrors.Required(fldPath+".apiGroups", "resource rules must supply at least one api group"))
	}
	if len(rule.Resources) == 0 {
		errs = append(errs, apierrors.Required(fldPath+".resources", "resource rules must supply at least one resource"))
	}
	return errs
}

// ValidateRoleBinding checks a RoleBinding: a namespaced path-segment
// name, a roleRef to a Role or ClusterRole, and valid subjects.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/validation (ValidateRoleBinding).
func ValidateRoleBinding(b *rbacv1.RoleBinding) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&b.ObjectMeta, true, NameIsPathSegment, "metadata")
	errs = append(errs, validateRoleRef(b.RoleRef, []string{"Role", "ClusterRole"})...)
	for i, s := range b.Subjects {
		errs = append(errs, ValidateRoleBindingSubject(s, true, fmt.Sprintf("subjects[%d]", i))...)
	}
	return errs
}

// ValidateRoleBindingUpdate checks an update of a RoleBinding: roleRef
// cannot change.
func ValidateRoleBindingUpdate(b, old *rbacv1.RoleBinding) apierrors.FieldErrors {
	errs := ValidateRoleBinding(b)
	errs = append(errs, ValidateObjectMetaUpdate(&b.ObjectMeta, &old.ObjectMeta, "metadata")...)
	if b.RoleRef != old.RoleRef {
		errs = append(errs, apierrors.Invalid("roleRef", b.RoleRef, "cannot change roleRef"))
	}
	return errs
}

// ValidateClusterRoleBinding checks a ClusterRoleBinding: a cluster-scoped
// path-segment name, a roleRef to a ClusterRole, and valid subjects
// (ServiceAccounts name their namespace).
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/validation (ValidateClusterRoleBinding).
func ValidateClusterRoleBinding(b *rbacv1.ClusterRoleBinding) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&b.ObjectMeta, false, NameIsPathSegment, "metadata")
	errs = append(errs, validateRoleRef(b.RoleRef, []string{"ClusterRole"})...)
	for i, s := range b.Subjects {
		errs = append(errs, ValidateRoleBindingSubject(s, false, fmt.Sprintf("subjects[%d]", i))...)
	}
	return errs
}

// ValidateClusterRoleBindingUpdate checks an update of a
// ClusterRoleBinding: roleRef cannot change.
func ValidateClusterRoleBindingUpdate(b, old *rbacv1.ClusterRoleBinding) apierrors.FieldErrors {
	errs := ValidateClusterRoleBinding(b)
	errs = append(errs, ValidateObjectMetaUpdate(&b.ObjectMeta, &old.ObjectMeta, "metadata")...)
	if b.RoleRef != old.RoleRef {
		errs = append(errs, apierrors.Invalid("roleRef", b.RoleRef, "cannot change roleRef"))
	}
	return errs
}

func validateRoleRef(ref rbacv1.RoleRef, kinds []string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if ref.APIGroup != rbacv1.GroupName {
		errs = append(errs, apierrors.NotSupported("roleRef.apiGroup", ref.APIGroup, []string{rbacv1.GroupName}))
	}
	if !slices.Contains(kinds, ref.Kind) {
		errs = append(errs, apierrors.NotSupported("roleRef.kind", ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, apierrors.Required("roleRef.name", ""))
	} else {
		for _, msg := range NameIsPathSegment(ref.Name, false) {
			errs = append(errs, apierrors.Invalid("roleRef.name", ref.Name, msg))
		}
	}
	return errs
}

// ValidateRoleBindingSubject checks one subject of a binding. A
// ServiceAccount outside a namespaced binding must name its namespace.
//
// Upstream: k8s.io/kubernetes/pkg/apis/rbac/validation (ValidateRoleBindingSubject).
func ValidateRoleBindingSubject(s rbacv1.Subject, namespaced bool, fldPath string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if s.Name == "" {
		errs = append(errs, apierrors.Required(fldPath+".name", ""))
	}
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range NameIsDNSSubdomain(s.Name, false) {
				errs = append(errs, apierrors.Invalid(fldPath+".name", s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, apierrors.NotSupported(fldPath+".apiGroup", s.APIGroup, []string{""}))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, apierrors.Required(fldPath+".namespace", ""))
		}
	case rbacv1.UserKind, rbacv1.GroupKind:
		if s.APIGroup != rbacv1.GroupName {
			errs = append(errs, apierrors.NotSupported(fldPath+".apiGroup", s.APIGroup, []string{rbacv1.GroupName}))
		}
	default:
		errs = append(errs, apierrors.NotSupported(fldPath+".kind", s.Kind,
			[]string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}))
	}
	return errs
}
