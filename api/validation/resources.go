package validation

import (
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
)

const (
	isNegativeErrorMsg   = "must be greater than or equal to 0"
	isNotIntegerErrorMsg = "must be an integer"
	isNotPositiveErrMsg  = "must be greater than zero"
)

// isNativeResource reports a resource Kubernetes itself defines: one
// without a domain, or in the kubernetes.io domain.
func isNativeResource(name corev1.ResourceName) bool {
	return !strings.Contains(string(name), "/") || strings.Contains(string(name), "kubernetes.io/")
}

func isHugePageResource(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), "hugepages-")
}

// isOvercommitAllowed reports whether requests may be below limits: true
// for native resources except huge pages; extended resources (devices)
// cannot be shared, so their request must equal their limit.
func isOvercommitAllowed(name corev1.ResourceName) bool {
	return isNativeResource(name) && !isHugePageResource(name)
}

// isIntegerResource reports resources that only come in whole units.
func isIntegerResource(name corev1.ResourceName) bool {
	return name == corev1.ResourcePods || !isNativeResource(name)
}

func isStandardContainerResource(name corev1.ResourceName) bool {
	switch name {
	case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
		return true
	}
	return isHugePageResource(name)
}

// validateContainerResourceName checks a key of requests or limits: a
// standard container resource, or a domain-qualified extended resource.
func validateContainerResourceName(name corev1.ResourceName, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, msg := range IsQualifiedName(string(name)) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), name, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if !strings.Contains(string(name), "/") {
		if !isStandardContainerResource(name) {
			errs = append(errs, apierrors.Invalid(fldPath.String(), name, "must be a standard resource for containers"))
		}
	} else if !isNativeResource(name) && strings.HasPrefix(string(name), "requests.") {
		errs = append(errs, apierrors.Invalid(fldPath.String(), name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// validateResourceQuantityValue checks an amount is not negative, and
// whole for resources counted in units.
func validateResourceQuantityValue(name corev1.ResourceName, q resource.Quantity, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if q.Sign() < 0 {
		errs = append(errs, apierrors.Invalid(fldPath.String(), q.String(), isNegativeErrorMsg))
	}
	if isIntegerResource(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, apierrors.Invalid(fldPath.String(), q.String(), isNotIntegerErrorMsg))
	}
	return errs
}

// validateResourceRequirements checks a container's requests and limits:
// names and amounts, requests no greater than limits, and requests equal to
// limits (and limits present) for resources that cannot be overcommitted.
func validateResourceRequirements(req *corev1.ResourceRequirements, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	limPath, reqPath := fldPath.child("limits"), fldPath.child("requests")
	for _, name := range sortedKeys(req.Limits) {
		errs = append(errs, validateContainerResourceName(name, limPath.key(string(name)))...)
		errs = append(errs, validateResourceQuantityValue(name, req.Limits[name], limPath.key(string(name)))...)
	}
	for _, name := range sortedKeys(req.Requests) {
		q := req.Requests[name]
		errs = append(errs, validateContainerResourceName(name, reqPath.key(string(name)))...)
		errs = append(errs, validateResourceQuantityValue(name, q, reqPath.key(string(name)))...)
		limit, ok := req.Limits[name]
		switch {
		case ok && q.Cmp(limit) != 0 && !isOvercommitAllowed(name):
			errs = append(errs, apierrors.Invalid(reqPath.String(), q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String())))
		case ok && q.Cmp(limit) > 0:
			errs = append(errs, apierrors.Invalid(reqPath.String(), q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
		case !ok && !isOvercommitAllowed(name):
			errs = append(errs, apierrors.Required(limPath.String(), "Limit must be set for non overcommitable resources"))
		}
	}
	return errs
}
