package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
)

// level is where a node sits: the root, an array's items or an object's
// field; some rules only apply at the root.
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// intOrStringAnyOf is the anyOf that x-kubernetes-int-or-string nodes may
// spell out ("anyOf: [{type: integer}, {type: string}]"), the only place
// a type may appear inside a junctor.
var intOrStringAnyOf = []NestedValueValidation{
	{ForbiddenGenerics: Generic{Type: "integer"}},
	{ForbiddenGenerics: Generic{Type: "string"}},
}

// ValidateStructural checks that s is a structural schema, and returns
// every violation under fldPath (the path of the schema itself, such as
// "spec.versions[0].schema.openAPIV3Schema"), sorted by message as
// upstream sorts them:
//
//   - every node has a type (apart from x-kubernetes-int-or-string and
//     x-kubernetes-preserve-unknown-fields nodes), the root is an object
//     and arrays have items;
//   - junctors (allOf, anyOf, oneOf, not) carry only value validations:
//     no type, default, description, title, nullable, additionalProperties,
//     x-kubernetes-* extensions or CEL rules, and every property they
//     mention is also in the typed tree;
//   - additionalProperties is not at the root, nor in an embedded resource;
//   - at the root, metadata restricts at most name and generateName; kind
//     and apiVersion are strings;
//   - patterns compile.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema (ValidateStructural).
func ValidateStructural(fldPath string, s *Structural) apierrors.FieldErrors {
	p := newPath(fldPath)
	var all apierrors.FieldErrors
	all = append(all, validateStructuralInvariants(s, rootLevel, p)...)
	all = append(all, validateStructuralCompleteness(s, p)...)
	slices.SortStableFunc(all, func(a, b *apierrors.FieldError) int {
		switch ea, eb := a.Error(), b.Error(); {
		case ea < eb:
			return -1
		case ea > eb:
			return 1
		}
		return 0
	})
	return all
}

func validateStructuralInvariants(s *Structural, lvl level, fldPath path) apierrors.FieldErrors {
	if s == nil {
		return nil
	}
	var all apierrors.FieldErrors
	if s.Type == "array" && s.Items == nil {
		all = append(all, required(fldPath.child("items"), "must be specified"))
	}
	all = append(all, validateStructuralInvariants(s.Items, itemLevel, fldPath.child("items"))...)
	for _, k := range sortedKeys(s.Properties) {
		v := s.Properties[k]
		all = append(all, validateStructuralInvariants(&v, fieldLevel, fldPath.child("properties").key(k))...)
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			all = append(all, forbidden(fldPath.child("additionalProperties"), "must not be used at the root"))
		}
		if s.AdditionalProperties.Structural != nil {
			all = append(all, validateStructuralInvariants(s.AdditionalProperties.Structural, fieldLevel, fldPath.child("additionalProperties"))...)
		}
	}
	if s.XIntOrString && s.XPreserveUnknownFields {
		all = append(all, invalid(fldPath.child("x-kubernetes-preserve-unknown-fields"), s.XPreserveUnknownFields, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		all = append(all, invalid(fldPath.child("x-kubernetes-embedded-resource"), s.XEmbeddedResource, "must be false if x-kubernetes-int-or-string is true"))
	}

	skipAnyOf := isIntOrStringAnyOfPattern(s)
	skipFirstAllOfAnyOf := isIntOrStringAllOfPattern(s)
	all = append(all, validateValueValidation(s.ValueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, fldPath)...)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	if s.XEmbeddedResource && s.Type != "object" {
		if s.Type == "" {
			all = append(all, required(fldPath.child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			all = append(all, invalid(fldPath.child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	} else if s.Type == "" && !s.XIntOrString && !s.XPreserveUnknownFields {
		switch lvl {
		case rootLevel:
			all = append(all, required(fldPath.child("type"), "must not be empty at the root"))
		case itemLevel:
			all = append(all, required(fldPath.child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			all = append(all, required(fldPath.child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		all = append(all, forbidden(fldPath.child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		all = append(all, invalid(fldPath.child("type"), s.Type, "must be object at the root"))
	}
	if kind, found := s.Properties["kind"]; found && checkMetadata && kind.Type != "string" {
		all = append(all, invalid(fldPath.child("properties").key("kind").child("type"), kind.Type, "must be string"))
	}
	if apiVersion, found := s.Properties["apiVersion"]; found && checkMetadata && apiVersion.Type != "string" {
		all = append(all, invalid(fldPath.child("properties").key("apiVersion").child("type"), apiVersion.Type, "must be string"))
	}
	if metadata, found := s.Properties["metadata"]; found {
		all = append(all, validateStructuralMetadataInvariants(metadata, checkMetadata, lvl, fldPath.child("properties").key("metadata"))...)
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		all = append(all, required(fldPath.child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return all
}

// validateStructuralMetadataInvariants checks the schema of metadata; s
// is a copy, changed freely.
func validateStructuralMetadataInvariants(s Structural, checkMetadata bool, lvl level, fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if checkMetadata && s.Type != "object" {
		all = append(all, invalid(fldPath.child("type"), s.Type, "must be object"))
	}
	if lvl == rootLevel {
		// metadata at the root is ObjectMeta, whatever the schema says;
		// it may only restrict name and generateName.
		_, foundName := s.Properties["name"]
		_, foundGenerateName := s.Properties["generateName"]
		if (foundName && foundGenerateName && len(s.Properties) == 2) || ((foundName || foundGenerateName) && len(s.Properties) == 1) {
			s.Properties = nil
		}
		s.Type = ""
		s.Default.Object = nil // validated with the defaults
		s.validator = nil
		if s.ValueValidation == nil {
			s.ValueValidation = &ValueValidation{}
		}
		if !reflect.DeepEqual(s, Structural{ValueValidation: &ValueValidation{}}) {
			all = append(all, forbidden(fldPath, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	return all
}

func isIntOrStringAnyOfPattern(s *Structural) bool {
	if s == nil || s.ValueValidation == nil {
		return false
	}
	return len(s.ValueValidation.AnyOf) == 2 && reflect.DeepEqual(s.ValueValidation.AnyOf, intOrStringAnyOf)
}

func isIntOrStringAllOfPattern(s *Structural) bool {
	if s == nil || s.ValueValidation == nil {
		return false
	}
	return len(s.ValueValidation.AllOf) >= 1 && len(s.ValueValidation.AllOf[0].AnyOf) == 2 &&
		reflect.DeepEqual(s.ValueValidation.AllOf[0].AnyOf, intOrStringAnyOf)
}

func validateValueValidation(v *ValueValidation, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, fldPath path) apierrors.FieldErrors {
	if v == nil {
		return nil
	}
	var all apierrors.FieldErrors
	if !skipAnyOf {
		for i := range v.AnyOf {
			all = append(all, validateNestedValueValidation(&v.AnyOf[i], false, false, lvl, fldPath.child("anyOf").index(i))...)
		}
	}
	for i := range v.AllOf {
		skip := skipFirstAllOfAnyOf && i == 0
		all = append(all, validateNestedValueValidation(&v.AllOf[i], skip, false, lvl, fldPath.child("allOf").index(i))...)
	}
	for i := range v.OneOf {
		all = append(all, validateNestedValueValidation(&v.OneOf[i], false, false, lvl, fldPath.child("oneOf").index(i))...)
	}
	all = append(all, validateNestedValueValidation(v.Not, false, false, lvl, fldPath.child("not"))...)
	if v.Pattern != "" {
		if _, err := regexp.Compile(v.Pattern); err != nil {
			all = append(all, invalid(fldPath.child("pattern"), v.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return all
}

func validateNestedValueValidation(v *NestedValueValidation, skipAnyOf, skipAllOfAnyOf bool, lvl level, fldPath path) apierrors.FieldErrors {
	if v == nil {
		return nil
	}
	var all apierrors.FieldErrors
	all = append(all, validateValueValidation(&v.ValueValidation, skipAnyOf, skipAllOfAnyOf, lvl, fldPath)...)
	all = append(all, validateNestedValueValidation(v.Items, false, false, lvl, fldPath.child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		fld := v.Properties[k]
		all = append(all, validateNestedValueValidation(&fld, false, false, fieldLevel, fldPath.child("properties").key(k))...)
	}
	g, x := &v.ForbiddenGenerics, &v.ForbiddenExtensions
	if g.Type != "" {
		all = append(all, forbidden(fldPath.child("type"), "must be empty to be structural"))
	}
	if v.AdditionalProperties != nil {
		all = append(all, forbidden(fldPath.child("additionalProperties"), "must be undefined to be structural"))
	}
	if g.Default.Object != nil {
		all = append(all, forbidden(fldPath.child("default"), "must be undefined to be structural"))
	}
	if g.Title != "" {
		all = append(all, forbidden(fldPath.child("title"), "must be empty to be structural"))
	}
	if g.Description != "" {
		all = append(all, forbidden(fldPath.child("description"), "must be empty to be structural"))
	}
	if g.Nullable {
		all = append(all, forbidden(fldPath.child("nullable"), "must be false to be structural"))
	}
	if x.XPreserveUnknownFields {
		all = append(all, forbidden(fldPath.child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if x.XEmbeddedResource {
		all = append(all, forbidden(fldPath.child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if x.XIntOrString {
		all = append(all, forbidden(fldPath.child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(x.XListMapKeys) > 0 {
		all = append(all, forbidden(fldPath.child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if x.XListType != nil {
		all = append(all, forbidden(fldPath.child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if x.XMapType != nil {
		all = append(all, forbidden(fldPath.child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if len(v.XValidations) > 0 {
		all = append(all, forbidden(fldPath.child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, found := v.Properties["metadata"]; found {
		all = append(all, forbidden(fldPath.child("properties").key("metadata"), "must not be specified in a nested context"))
	}
	return all
}

// validateStructuralCompleteness checks that every property a junctor
// mentions is also in the typed tree, so that pruning cannot drop what
// validation expects.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema (validateStructuralCompleteness).
func validateStructuralCompleteness(s *Structural, fldPath path) apierrors.FieldErrors {
	if s == nil {
		return nil
	}
	return validateValueValidationCompleteness(s.ValueValidation, s, fldPath, fldPath)
}

func validateValueValidationCompleteness(v *ValueValidation, s *Structural, sPath, vPath path) apierrors.FieldErrors {
	if v == nil {
		return nil
	}
	if s == nil {
		return apierrors.FieldErrors{required(sPath, fmt.Sprintf("because it is defined in %s", vPath))}
	}
	var all apierrors.FieldErrors
	all = append(all, validateNestedValueValidationCompleteness(v.Not, s, sPath, vPath.child("not"))...)
	for i := range v.AllOf {
		all = append(all, validateNestedValueValidationCompleteness(&v.AllOf[i], s, sPath, vPath.child("allOf").index(i))...)
	}
	for i := range v.AnyOf {
		all = append(all, validateNestedValueValidationCompleteness(&v.AnyOf[i], s, sPath, vPath.child("anyOf").index(i))...)
	}
	for i := range v.OneOf {
		all = append(all, validateNestedValueValidationCompleteness(&v.OneOf[i], s, sPath, vPath.child("oneOf").index(i))...)
	}
	return all
}

func validateNestedValueValidationCompleteness(v *NestedValueValidation, s *Structural, sPath, vPath path) apierrors.FieldErrors {
	if v == nil {
		return nil
	}
	if s == nil {
		return apierrors.FieldErrors{required(sPath, fmt.Sprintf("because it is defined in %s", vPath))}
	}
	var all apierrors.FieldErrors
	all = append(all, validateValueValidationCompleteness(&v.ValueValidation, s, sPath, vPath)...)
	all = append(all, validateNestedValueValidationCompleteness(v.Items, s.Items, sPath.child("items"), vPath.child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		vFld := v.Properties[k]
		if sFld, ok := s.Properties[k]; !ok {
			all = append(all, required(sPath.child("properties").key(k), fmt.Sprintf("because it is defined in %s", vPath.child("properties").key(k))))
		} else {
			all = append(all, validateNestedValueValidationCompleteness(&vFld, &sFld, sPath.child("properties").key(k), vPath.child("properties").key(k))...)
		}
	}
	return all
}
