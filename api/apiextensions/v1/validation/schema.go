package validation

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

var openapiV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

// allowedFieldsAtRootSchema are the fields the root schema may have when
// the status subresource is on, so that extracting properties.status
// loses no validation.
var allowedFieldsAtRootSchema = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

var supportedValidationReasons = []string{
	string(apiextensionsv1.FieldValueDuplicate),
	string(apiextensionsv1.FieldValueForbidden),
	string(apiextensionsv1.FieldValueInvalid),
	string(apiextensionsv1.FieldValueRequired),
}

var metaFields = map[string]bool{"metadata": true, "kind": true, "apiVersion": true}

// validateValidation checks one schema (a version's or the hoisted one).
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (validateCustomResourceDefinitionValidation).
func validateValidation(v *apiextensionsv1.CustomResourceValidation, statusEnabled bool, opts options, fldPath path) apierrors.FieldErrors {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil
	}
	s := v.OpenAPIV3Schema
	var all apierrors.FieldErrors
	if statusEnabled {
		all = append(all, validateRootWithStatus(s, fldPath)...)
	}
	if s.Nullable {
		all = append(all, forbidden(fldPath.child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))
	}
	ssv := schemaValidator{allowDefaults: opts.allowDefaults, requireValidPropertyType: opts.requireValidPropertyType}
	var structuralInitErrs apierrors.FieldErrors
	// Rules are only compiled for structural schemas with valid defaults,
	// whose types CEL can declare.
	celEnabled := false
	if opts.requireStructuralSchema {
		ss, err := schema.NewStructural(s)
		if err != nil {
			// These overlap with the OpenAPI checks below, so they are
			// only reported when those find nothing.
			structuralInitErrs = append(structuralInitErrs, invalid(fldPath.child("openAPIV3Schema"), "", err.Error()))
		} else if errs := schema.ValidateStructural(fldPath.child("openAPIV3Schema").s, ss); len(errs) > 0 {
			all = append(all, errs...)
		} else if errs, err := schema.ValidateDefaults(fldPath.child("openAPIV3Schema").s, ss, true, opts.requirePrunedDefaults); err != nil {
			all = append(all, invalid(fldPath.child("openAPIV3Schema"), "", err.Error()))
		} else {
			all = append(all, errs...)
			celEnabled = len(errs) == 0
		}
	}
	schemaErrs, celErrs := validateSchema(s, fldPath.child("openAPIV3Schema"), ssv, true, &opts, celScope{enabled: celEnabled, isResourceRoot: true})
	all = append(all, schemaErrs...)
	all = append(all, celErrs...)
	if len(all) == 0 {
		all = append(all, structuralInitErrs...)
	}
	return all
}

// validateRootWithStatus checks that the root schema uses only fields
// that survive extracting the status schema: the first other field set,
// in the internal type's field order, is reported.
func validateRootWithStatus(s *apiextensionsv1.JSONSchemaProps, fldPath path) apierrors.FieldErrors {
	internal := toInternalSchema(s)
	v := reflect.ValueOf(internal)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			continue
		}
		name := v.Type().Field(i).Name
		if name == "Type" {
			if s.Type != "object" {
				return apierrors.FieldErrors{invalid(fldPath.child("openAPIV3Schema.type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
			}
			continue
		}
		if !slices.Contains(allowedFieldsAtRootSchema, name) {
			return apierrors.FieldErrors{invalid(fldPath.child("openAPIV3Schema"), internal, fmt.Sprintf(`only %v fields are allowed at the root of the schema if the status subresource is enabled`, allowedFieldsAtRootSchema))}
		}
	}
	return nil
}

// schemaValidator carries what the checks of one node depend on above
// it.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (specStandardValidatorV3).
type schemaValidator struct {
	allowDefaults            bool
	disallowDefaultsReason   string
	insideResourceMeta       bool
	requireValidPropertyType bool
	// uncorrelatable is the path of the highest list above the node whose
	// elements cannot be matched between old and new objects (any list but
	// a map list), where rules may not use oldSelf; empty when there is none.
	uncorrelatable string
}

func (v schemaValidator) withUncorrelatable(p path) schemaValidator {
	if v.uncorrelatable == "" {
		v.uncorrelatable = p.String()
	}
	return v
}

func (v schemaValidator) withForbiddenDefaults(reason string) schemaValidator {
	v.allowDefaults, v.disallowDefaultsReason = false, reason
	return v
}

func (v schemaValidator) withInsideResourceMeta() schemaValidator {
	v.insideResourceMeta = true
	return v
}

func (v schemaValidator) validate(s *apiextensionsv1.JSONSchemaProps, fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if v.requireValidPropertyType && s.Type != "" && !slices.Contains(openapiV3Types, s.Type) {
		all = append(all, notSupported(fldPath.child("type"), s.Type, openapiV3Types))
	}
	if s.Default != nil && !v.allowDefaults {
		detail := "must not be set"
		if v.disallowDefaultsReason != "" {
			detail += " " + v.disallowDefaultsReason
		}
		all = append(all, forbidden(fldPath.child("default"), detail))
	}
	if s.ID != "" {
		all = append(all, forbidden(fldPath.child("id"), "id is not supported"))
	}
	if s.AdditionalItems != nil {
		all = append(all, forbidden(fldPath.child("additionalItems"), "additionalItems is not supported"))
	}
	if len(s.PatternProperties) != 0 {
		all = append(all, forbidden(fldPath.child("patternProperties"), "patternProperties is not supported"))
	}
	if len(s.Definitions) != 0 {
		all = append(all, forbidden(fldPath.child("definitions"), "definitions is not supported"))
	}
	if s.Dependencies != nil {
		all = append(all, forbidden(fldPath.child("dependencies"), "dependencies is not supported"))
	}
	if s.Ref != nil {
		all = append(all, forbidden(fldPath.child("$ref"), "$ref is not supported"))
	}
	if s.Type == "null" {
		all = append(all, forbidden(fldPath.child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if s.Items != nil && len(s.Items.JSONSchemas) != 0 {
		all = append(all, forbidden(fldPath.child("items"), "items must be a schema object and not an array"))
	}
	if v.insideResourceMeta && s.XEmbeddedResource {
		all = append(all, forbidden(fldPath.child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
	return all
}

// celScope says whether rules are compiled (only in structural schemas
// with valid defaults) and whether the node is a resource, whose self has
// apiVersion, kind and metadata.
type celScope struct {
	enabled        bool
	isResourceRoot bool
}

// validateSchema checks one node of a schema and, recursively, all below.
// The errors of the node's CEL rules are returned apart, as upstream
// keeps them apart: rules are only compiled when the node and everything
// below it are otherwise valid.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation
// (ValidateCustomResourceDefinitionOpenAPISchema, less static cost estimation).
func validateSchema(s *apiextensionsv1.JSONSchemaProps, fldPath path, ssv schemaValidator, isRoot bool, opts *options, scope celScope) (schemaErrs, celErrs apierrors.FieldErrors) {
	if s == nil {
		return nil, nil
	}
	all := ssv.validate(s, fldPath)
	sub := func(child *apiextensionsv1.JSONSchemaProps, p path, v schemaValidator, childScope celScope) {
		se, ce := validateSchema(child, p, v, false, opts, childScope)
		all = append(all, se...)
		celErrs = append(celErrs, ce...)
	}
	childScope := func(child *apiextensionsv1.JSONSchemaProps) celScope {
		return celScope{enabled: scope.enabled && child != nil, isResourceRoot: child != nil && child.XEmbeddedResource}
	}
	noCEL := celScope{}
	if s.UniqueItems {
		all = append(all, forbidden(fldPath.child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	// properties are for structs, additionalProperties for maps: both at
	// once would contradict the convention to drop unknown fields.
	if s.AdditionalProperties != nil {
		if len(s.Properties) != 0 && (!s.AdditionalProperties.Allows || s.AdditionalProperties.Schema != nil) {
			all = append(all, forbidden(fldPath.child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		ssvAP := ssv
		if ssv.insideResourceMeta {
			// Pruning without the actual value would be ambiguous.
			ssvAP = ssv.withForbiddenDefaults("inside additionalProperties applying to object metadata")
		}
		sub(s.AdditionalProperties.Schema, fldPath.child("additionalProperties"), ssvAP, childScope(s.AdditionalProperties.Schema))
	}
	for _, k := range sortedKeys(s.Properties) {
		ssvProp := ssv
		if (isRoot || s.XEmbeddedResource) && metaFields[k] {
			ssvProp = ssvProp.withInsideResourceMeta()
			if isRoot {
				ssvProp = ssvProp.withForbiddenDefaults(fmt.Sprintf("in top-level %s", k))
			}
		}
		prop := s.Properties[k]
		sub(&prop, fldPath.child("properties").key(k), ssvProp, childScope(&prop))
	}
	sub(s.Not, fldPath.child("not"), ssv, noCEL)
	for i := range s.AllOf {
		sub(&s.AllOf[i], fldPath.child("allOf").index(i), ssv, noCEL)
	}
	for i := range s.OneOf {
		sub(&s.OneOf[i], fldPath.child("oneOf").index(i), ssv, noCEL)
	}
	for i := range s.AnyOf {
		sub(&s.AnyOf[i], fldPath.child("anyOf").index(i), ssv, noCEL)
	}
	for _, k := range sortedKeys(s.Definitions) {
		def := s.Definitions[k]
		sub(&def, fldPath.child("definitions").key(k), ssv, noCEL)
	}
	if s.Items != nil {
		ssvItems := ssv
		// Only the elements of map lists can be matched between the old
		// and the new object.
		if s.XListType == nil || *s.XListType != "map" {
			ssvItems = ssvItems.withUncorrelatable(fldPath)
		}
		sub(s.Items.Schema, fldPath.child("items"), ssvItems, childScope(s.Items.Schema))
		for i := range s.Items.JSONSchemas {
			sub(&s.Items.JSONSchemas[i], fldPath.child("items").index(i), ssvItems, noCEL)
		}
	}
	for _, k := range sortedKeys(s.Dependencies) {
		sub(s.Dependencies[k].Schema, fldPath.child("dependencies").key(k), ssv, noCEL)
	}
	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		all = append(all, invalid(fldPath.child("x-kubernetes-preserve-unknown-fields"), *s.XPreserveUnknownFields, "must be true or undefined"))
	}
	all = append(all, validateListAndMapTypes(s, fldPath, opts)...)
	if opts.requireMapListKeysMapSetValidation {
		all = append(all, validateMapListKeysMapSet(s, fldPath)...)
	}
	all = append(all, validateRules(s, fldPath)...)
	// Invalid schemas do not always make valid CEL types, and the errors
	// of compiling against them would only confuse.
	if len(s.XValidations) > 0 && len(all) == 0 && scope.enabled {
		celErrs = append(celErrs, compileRules(s, fldPath, ssv, scope)...)
	}
	return all, celErrs
}

func validateListAndMapTypes(s *apiextensionsv1.JSONSchemaProps, fldPath path, opts *options) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if s.XMapType != nil && s.Type != "object" {
		if s.Type == "" {
			all = append(all, required(fldPath.child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			all = append(all, invalid(fldPath.child("type"), s.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if s.XMapType != nil && *s.XMapType != "atomic" && *s.XMapType != "granular" {
		all = append(all, notSupported(fldPath.child("x-kubernetes-map-type"), *s.XMapType, []string{"atomic", "granular"}))
	}
	if s.XListType != nil && s.Type != "array" {
		if s.Type == "" {
			all = append(all, required(fldPath.child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			all = append(all, invalid(fldPath.child("type"), s.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if opts.requireAtomicSetType && s.XListType != nil && *s.XListType == "set" && s.Items != nil && s.Items.Schema != nil {
		is := s.Items.Schema
		switch is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				all = append(all, invalid(fldPath.child("items", "x-kubernetes-list-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				// Upstream reports the items' list type here, not the map type.
				all = append(all, invalid(fldPath.child("items", "x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if s.XListType != nil && *s.XListType != "atomic" && *s.XListType != "set" && *s.XListType != "map" {
		all = append(all, notSupported(fldPath.child("x-kubernetes-list-type"), *s.XListType, []string{"atomic", "set", "map"}))
	}
	if len(s.XListMapKeys) > 0 {
		if s.XListType == nil {
			all = append(all, required(fldPath.child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *s.XListType != "map" {
			all = append(all, invalid(fldPath.child("x-kubernetes-list-type"), *s.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if s.XListType != nil && *s.XListType == "map" {
		if len(s.XListMapKeys) == 0 {
			all = append(all, required(fldPath.child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
		}
		if s.Items == nil {
			all = append(all, required(fldPath.child("items"), "must have a schema if x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Schema == nil {
			all = append(all, invalid(fldPath.child("items"), toInternalSchemaPtr(&apiextensionsv1.JSONSchemaProps{Items: s.Items}).Items, "must only have a single schema if x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Schema != nil && s.Items.Schema.Type != "object" {
			all = append(all, invalid(fldPath.child("items", "type"), s.Items.Schema.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Schema != nil && s.Items.Schema.Type == "object" {
			keys := map[string]bool{}
			for _, k := range s.XListMapKeys {
				if ks, ok := s.Items.Schema.Properties[k]; ok {
					if ks.Type == "array" || ks.Type == "object" {
						all = append(all, invalid(fldPath.child("items", "properties").key(k).child("type"), s.Items.Schema.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
					}
				} else {
					all = append(all, invalid(fldPath.child("x-kubernetes-list-map-keys"), s.XListMapKeys, "entries must all be names of item properties"))
				}
				if keys[k] {
					all = append(all, invalid(fldPath.child("x-kubernetes-list-map-keys"), s.XListMapKeys, "must not contain duplicate entries"))
				}
				keys[k] = true
			}
		}
	}
	return all
}

func validateMapListKeysMapSet(s *apiextensionsv1.JSONSchemaProps, fldPath path) apierrors.FieldErrors {
	if s.Items == nil || s.Items.Schema == nil || s.XListType == nil {
		return nil
	}
	if *s.XListType != "set" && *s.XListType != "map" {
		return nil
	}
	var all apierrors.FieldErrors
	if s.Items.Schema.Nullable {
		all = append(all, forbidden(fldPath.child("items", "nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.XListType))
	}
	if *s.XListType == "map" {
		isRequired := map[string]bool{}
		for _, r := range s.Items.Schema.Required {
			isRequired[r] = true
		}
		for _, k := range s.XListMapKeys {
			prop, ok := s.Items.Schema.Properties[k]
			if !ok {
				continue
			}
			if !isRequired[k] && prop.Default == nil {
				all = append(all, required(fldPath.child("items", "properties").key(k).child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
			}
			if prop.Nullable {
				all = append(all, forbidden(fldPath.child("items", "properties").key(k).child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
			}
		}
	}
	return all
}

var newlineMatcher = regexp.MustCompile(`[\n\r]+`)

func hasNewlines(s string) bool { return newlineMatcher.MatchString(s) }

// validateRules checks the shape of the CEL rules of a node; the
// expressions themselves are not compiled.
func validateRules(s *apiextensionsv1.JSONSchemaProps, fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	for i, rule := range s.XValidations {
		rp := fldPath.child("x-kubernetes-validations").index(i)
		trimmedRule := strings.TrimSpace(rule.Rule)
		trimmedMsg := strings.TrimSpace(rule.Message)
		trimmedMsgExpr := strings.TrimSpace(rule.MessageExpression)
		switch {
		case trimmedRule == "":
			all = append(all, required(rp.child("rule"), "rule is not specified"))
		case rule.Message != "" && trimmedMsg == "":
			all = append(all, invalid(rp.child("message"), rule.Message, "must be non-empty if specified"))
		case hasNewlines(trimmedMsg):
			all = append(all, invalid(rp.child("message"), rule.Message, "must not contain line breaks"))
		case hasNewlines(trimmedRule) && trimmedMsg == "":
			all = append(all, required(rp.child("message"), "message must be specified if rule contains line breaks"))
		}
		if rule.MessageExpression != "" && trimmedMsgExpr == "" {
			all = append(all, required(rp.child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if rule.Reason != nil && !slices.Contains(supportedValidationReasons, string(*rule.Reason)) {
			all = append(all, notSupported(rp.child("reason"), string(*rule.Reason), supportedValidationReasons))
		}
		if rule.FieldPath != "" && strings.TrimSpace(rule.FieldPath) == "" {
			all = append(all, invalid(rp.child("fieldPath"), rule.FieldPath, "must be non-empty if specified"))
		}
		if hasNewlines(rule.FieldPath) {
			all = append(all, invalid(rp.child("fieldPath"), rule.FieldPath, "must not contain line breaks"))
		}
		if rule.FieldPath != "" && !pathValid(s, rule.FieldPath) {
			all = append(all, invalid(rp.child("fieldPath"), rule.FieldPath, "must be a valid path"))
		}
	}
	return all
}

func pathValid(s *apiextensionsv1.JSONSchemaProps, fieldPath string) bool {
	ss, err := schema.NewStructural(s)
	if err != nil {
		return true
	}
	_, _, err = schema.ValidFieldPath(fieldPath, ss, true)
	return err == nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
