package validation

import (
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
)

// ValidateResourceQuota checks a ResourceQuota being created or updated:
// a namespaced object named by a DNS subdomain, qualified resource names
// with non-negative amounts (whole ones for what is counted), and known,
// consistent scopes.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateResourceQuota).
func ValidateResourceQuota(q *corev1.ResourceQuota) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&q.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, validateResourceQuotaSpec(&q.Spec, path("spec"))...)
}

// ValidateResourceQuotaUpdate checks an update: the metadata update rules
// and the new spec.
func ValidateResourceQuotaUpdate(q, old *corev1.ResourceQuota) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&q.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, validateResourceQuotaSpec(&q.Spec, path("spec"))...)
}

// ValidateResourceQuotaStatusUpdate checks a write of a quota's status:
// its hard and used amounts, as the spec's.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateResourceQuotaStatusUpdate).
func ValidateResourceQuotaStatusUpdate(q, old *corev1.ResourceQuota) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&q.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, validateQuotaResources(q.Status.Hard, path("status").child("hard"))...)
	return append(errs, validateQuotaResources(q.Status.Used, path("status").child("used"))...)
}

func validateResourceQuotaSpec(spec *corev1.ResourceQuotaSpec, fldPath path) apierrors.FieldErrors {
	errs := validateQuotaResources(spec.Hard, fldPath.child("hard"))
	scopes := map[corev1.ResourceQuotaScope]bool{}
	for _, s := range spec.Scopes {
		if !knownQuotaScope(s) {
			errs = append(errs, apierrors.Invalid(fldPath.child("scopes").String(), s, "unsupported scope"))
		}
		scopes[s] = true
	}
	if sel := spec.ScopeSelector; sel != nil {
		for i, req := range sel.MatchExpressions {
			p := fldPath.child("scopeSelector", "matchExpressions").index(i)
			if !knownQuotaScope(req.ScopeName) {
				errs = append(errs, apierrors.Invalid(p.child("scopeName").String(), req.ScopeName, "unsupported scope"))
			}
			switch req.Operator {
			case corev1.ScopeSelectorOpIn, corev1.ScopeSelectorOpNotIn:
				if len(req.Values) == 0 {
					errs = append(errs, apierrors.Required(p.child("values").String(), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
				}
			case corev1.ScopeSelectorOpExists, corev1.ScopeSelectorOpDoesNotExist:
				if len(req.Values) != 0 {
					errs = append(errs, apierrors.Invalid(p.child("values").String(), req.Values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
				}
			default:
				errs = append(errs, apierrors.Invalid(p.child("operator").String(), req.Operator, "not a valid selector operator"))
			}
			if req.Operator == corev1.ScopeSelectorOpExists {
				scopes[req.ScopeName] = true
			}
		}
	}
	for _, pair := range [][2]corev1.ResourceQuotaScope{
		{corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating},
		{corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort},
	} {
		if scopes[pair[0]] && scopes[pair[1]] {
			errs = append(errs, apierrors.Invalid(fldPath.child("scopes").String(), spec.Scopes, "conflicting scopes"))
		}
	}
	return errs
}

func knownQuotaScope(s corev1.ResourceQuotaScope) bool {
	switch s {
	case corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating, corev1.ResourceQuotaScopeBestEffort,
		corev1.ResourceQuotaScopeNotBestEffort, corev1.ResourceQuotaScopePriorityClass, corev1.ResourceQuotaScopeCrossNamespacePodAffinity,
		corev1.ResourceQuotaScopeVolumeAttributesClass:
		return true
	}
	return false
}

// validateQuotaResources checks the names and amounts of a quota's list.
func validateQuotaResources(list corev1.ResourceList, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, name := range sortedKeys(list) {
		p := fldPath.key(string(name))
		for _, msg := range IsQualifiedName(strings.TrimPrefix(string(name), "count/")) {
			errs = append(errs, apierrors.Invalid(p.String(), name, msg))
		}
		errs = append(errs, validateQuotaQuantity(name, list[name], p)...)
	}
	return errs
}

// validateQuotaQuantity checks an amount is not negative, and whole for
// what a quota counts (everything but CPU, memory and storage).
func validateQuotaQuantity(name corev1.ResourceName, q resource.Quantity, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if q.Sign() < 0 {
		errs = append(errs, apierrors.Invalid(fldPath.String(), q.String(), isNegativeErrorMsg))
	}
	if isIntegerQuotaResource(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, apierrors.Invalid(fldPath.String(), q.String(), isNotIntegerErrorMsg))
	}
	return errs
}

// isIntegerQuotaResource reports the quota resources counted in units.
func isIntegerQuotaResource(name corev1.ResourceName) bool {
	switch name {
	case corev1.ResourcePods, corev1.ResourceServices, corev1.ResourceConfigMaps, corev1.ResourceSecrets, corev1.ResourceQuotas,
		"replicationcontrollers", "persistentvolumeclaims", "services.loadbalancers", "services.nodeports":
		return true
	}
	return strings.HasPrefix(string(name), "count/")
}

// ValidateLimitRange checks a LimitRange: a namespaced object named by a
// DNS subdomain and, for each item, a known type with min no greater than
// the default request, no greater than the default limit, no greater
// than max; no defaults for the Pod type.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateLimitRange).
func ValidateLimitRange(lr *corev1.LimitRange) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&lr.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	seen := map[corev1.LimitType]bool{}
	for i, item := range lr.Spec.Limits {
		p := path("spec").child("limits").index(i)
		switch item.Type {
		case corev1.LimitTypePod, corev1.LimitTypeContainer, corev1.LimitTypePersistentVolumeClaim:
		default:
			errs = append(errs, apierrors.NotSupported(p.child("type").String(), item.Type, []string{"Container", "PersistentVolumeClaim", "Pod"}))
		}
		if seen[item.Type] {
			errs = append(errs, apierrors.Duplicate(p.child("type").String(), item.Type))
		}
		seen[item.Type] = true
		if item.Type == corev1.LimitTypePod {
			if len(item.Default) > 0 {
				errs = append(errs, apierrors.Forbidden(p.child("default").String(), "may not be specified when `type` is 'Pod'"))
			}
			if len(item.DefaultRequest) > 0 {
				errs = append(errs, apierrors.Forbidden(p.child("defaultRequest").String(), "may not be specified when `type` is 'Pod'"))
			}
		}
		for _, list := range []struct {
			name string
			rl   corev1.ResourceList
		}{{"max", item.Max}, {"min", item.Min}, {"default", item.Default}, {"defaultRequest", item.DefaultRequest}, {"maxLimitRequestRatio", item.MaxLimitRequestRatio}} {
			for _, name := range sortedKeys(list.rl) {
				kp := p.child(list.name).key(string(name))
				for _, msg := range IsQualifiedName(string(name)) {
					errs = append(errs, apierrors.Invalid(kp.String(), name, msg))
				}
				errs = append(errs, validateResourceQuantityValue(name, list.rl[name], kp)...)
			}
		}
		errs = append(errs, validateLimitRangeOrder(item, p)...)
	}
	return errs
}

// validateLimitRangeOrder checks min <= defaultRequest <= default <= max
// for each resource, and a ratio of at least 1, with upstream's messages.
func validateLimitRangeOrder(item corev1.LimitRangeItem, p path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	names := map[corev1.ResourceName]bool{}
	for _, rl := range []corev1.ResourceList{item.Max, item.Min, item.Default, item.DefaultRequest, item.MaxLimitRequestRatio} {
		for n := range rl {
			names[n] = true
		}
	}
	for _, name := range sortedKeys(names) {
		key := string(name)
		maxQ, hasMax := item.Max[name]
		minQ, hasMin := item.Min[name]
		def, hasDef := item.Default[name]
		defReq, hasDefReq := item.DefaultRequest[name]
		ratio, hasRatio := item.MaxLimitRequestRatio[name]
		if hasMin && hasMax && minQ.Cmp(maxQ) > 0 {
			errs = append(errs, apierrors.Invalid(p.child("min").key(key).String(), minQ.String(),
				fmt.Sprintf("min value %s is greater than max value %s", minQ.String(), maxQ.String())))
		}
		if hasDefReq && hasMax && defReq.Cmp(maxQ) > 0 {
			errs = append(errs, apierrors.Invalid(p.child("defaultRequest").key(key).String(), defReq.String(),
				fmt.Sprintf("default request value %s is greater than max value %s", defReq.String(), maxQ.String())))
		}
		if hasDefReq && hasMin && minQ.Cmp(defReq) > 0 {
			errs = append(errs, apierrors.Invalid(p.child("defaultRequest").key(key).String(), defReq.String(),
				fmt.Sprintf("min value %s is greater than default request value %s", minQ.String(), defReq.String())))
		}
		if hasDefReq && hasDef && defReq.Cmp(def) > 0 {
			errs = append(errs, apierrors.Invalid(p.child("defaultRequest").key(key).String(), defReq.String(),
				fmt.Sprintf("default request value %s is greater than default limit value %s", defReq.String(), def.String())))
		}
		if hasDef && hasMax && def.Cmp(maxQ) > 0 {
			errs = append(errs, apierrors.Invalid(p.child("default").key(key).String(), def.String(),
				fmt.Sprintf("default value %s is greater than max value %s", def.String(), maxQ.String())))
		}
		if hasDef && hasMin && minQ.Cmp(def) > 0 {
			errs = append(errs, apierrors.Invalid(p.child("default").key(key).String(), def.String(),
				fmt.Sprintf("min value %s is greater than default value %s", minQ.String(), def.String())))
		}
		if hasRatio && ratio.Cmp(resource.MustParse("1")) < 0 {
			errs = append(errs, apierrors.Invalid(p.child("maxLimitRequestRatio").key(key).String(), ratio.String(),
				fmt.Sprintf("ratio %s is less than 1", ratio.String())))
		}
	}
	return errs
}
