package schema

import "github.com/minicp/minicp/api/apierrors"

// Validate checks value against the schema the way the API server checks
// a custom resource on create and update, and returns every problem:
//
//  1. the OpenAPI validation (types, formats, enum, bounds, lengths,
//     patterns, required, items, properties, additionalProperties and
//     the logic junctors), with kube-openapi's messages ("spec.replicas in
//     body must be of type integer: \"string\"");
//  2. the apiVersion, kind and metadata of x-kubernetes-embedded-resource
//     objects inside value (not of value itself: the API server validates
//     the object's own metadata as ObjectMeta);
//  3. uniqueness in lists of x-kubernetes-list-type set and map.
//
// fldPath prefixes every field path: "" for a whole object, "status" when
// validating the status subresource against the status schema. Object
// keys are visited in sorted order, so the errors come in a stable order
// (upstream's follows Go's map iteration and varies). CEL rules
// (x-kubernetes-validations) are evaluated by package cel, which imports
// this one. Validate does not change value or s and is safe for
// concurrent use; a nil s accepts everything.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource
// (customResourceStrategy.Validate, less TypeMeta, ObjectMeta, scale and CEL).
func Validate(s *Structural, value any, fldPath string) apierrors.FieldErrors {
	if s == nil {
		return nil
	}
	p := newPath(fldPath)
	v := s.validator
	if v == nil {
		v = fromStructural(s)
	}
	errs := v.validate("", value).toFieldErrors(p)
	errs = append(errs, validateEmbeddedResources(p, value, s, false)...)
	if m, ok := value.(map[string]any); ok {
		errs = append(errs, validateListSetsAndMaps(p, s, m)...)
	}
	return errs
}
