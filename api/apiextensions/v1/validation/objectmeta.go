package validation

import "github.com/minicp/minicp/api/apierrors"

// coreFinalizerRule is the detail of the finalizer rule of core kinds,
// which api/validation's ObjectMeta checks apply. CRDs and custom
// resources are held to the generic rule (a qualified name) only, so that
// "customresourcecleanup.apiextensions.k8s.io" is a valid finalizer.
const coreFinalizerRule = "name is neither a standard finalizer name nor is it fully qualified"

// withoutCoreFinalizerRule drops the errors of the core finalizer rule.
//
// Upstream: k8s.io/apimachinery/pkg/api/validation (ValidateFinalizers),
// which CRDs use, against k8s.io/kubernetes/pkg/apis/core/validation.
func withoutCoreFinalizerRule(errs apierrors.FieldErrors) apierrors.FieldErrors {
	out := errs[:0]
	for _, e := range errs {
		if e.Detail != coreFinalizerRule {
			out = append(out, e)
		}
	}
	return out
}
