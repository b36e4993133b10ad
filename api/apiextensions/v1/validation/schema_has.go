package validation

import (
	"reflect"
	"slices"

	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// hasSchemaWith reports whether the hoisted schema or any version's
// schema satisfies pred.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (HasSchemaWith).
func hasSchemaWith(spec *specView, pred func(*apiextensionsv1.JSONSchemaProps) bool) bool {
	if spec.validation != nil && spec.validation.OpenAPIV3Schema != nil && pred(spec.validation.OpenAPIV3Schema) {
		return true
	}
	for _, v := range spec.versions {
		if v.schema != nil && v.schema.OpenAPIV3Schema != nil && pred(v.schema.OpenAPIV3Schema) {
			return true
		}
	}
	return false
}

// schemaHas reports whether pred holds for s or any schema below it.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (SchemaHas).
func schemaHas(s *apiextensionsv1.JSONSchemaProps, pred func(*apiextensionsv1.JSONSchemaProps) bool) bool {
	if s == nil {
		return false
	}
	if pred(s) {
		return true
	}
	if s.Items != nil {
		if schemaHas(s.Items.Schema, pred) {
			return true
		}
		for i := range s.Items.JSONSchemas {
			if schemaHas(&s.Items.JSONSchemas[i], pred) {
				return true
			}
		}
	}
	for _, list := range [][]apiextensionsv1.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if schemaHas(&list[i], pred) {
				return true
			}
		}
	}
	if schemaHas(s.Not, pred) {
		return true
	}
	for _, m := range []map[string]apiextensionsv1.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for k := range m {
			v := m[k]
			if schemaHas(&v, pred) {
				return true
			}
		}
	}
	if s.AdditionalProperties != nil && schemaHas(s.AdditionalProperties.Schema, pred) {
		return true
	}
	if s.AdditionalItems != nil && schemaHas(s.AdditionalItems.Schema, pred) {
		return true
	}
	for _, d := range s.Dependencies {
		if schemaHas(d.Schema, pred) {
			return true
		}
	}
	return false
}

func schemaHasDefaults(s *apiextensionsv1.JSONSchemaProps) bool {
	return schemaHas(s, func(s *apiextensionsv1.JSONSchemaProps) bool { return s.Default != nil })
}

func schemaHasKubernetesExtensions(s *apiextensionsv1.JSONSchemaProps) bool {
	return schemaHas(s, func(s *apiextensionsv1.JSONSchemaProps) bool {
		return s.XEmbeddedResource || s.XPreserveUnknownFields != nil || s.XIntOrString ||
			len(s.XListMapKeys) > 0 || s.XListType != nil || len(s.XValidations) > 0
	})
}

func schemaHasInvalidTypes(s *apiextensionsv1.JSONSchemaProps) bool {
	return schemaHas(s, func(s *apiextensionsv1.JSONSchemaProps) bool {
		return s.Type != "" && !slices.Contains(openapiV3Types, s.Type)
	})
}

func schemaIsNonStructural(s *apiextensionsv1.JSONSchemaProps) bool {
	ss, err := schema.NewStructural(s)
	if err != nil {
		return true
	}
	return len(schema.ValidateStructural("", ss)) > 0
}

// schemaHasUnprunedDefaults reports whether pruning would change a
// default; a schema that is not structural has none by definition.
func schemaHasUnprunedDefaults(s *apiextensionsv1.JSONSchemaProps) bool {
	if !schemaHasDefaults(s) {
		return false
	}
	ss, err := schema.NewStructural(s)
	if err != nil || len(schema.ValidateStructural("", ss)) > 0 {
		return false
	}
	pruned := ss.DeepCopy()
	if err := schema.PruneDefaults(pruned); err != nil {
		return false
	}
	return !reflect.DeepEqual(ss, pruned)
}

func hasNonAtomicSetType(s *apiextensionsv1.JSONSchemaProps) bool {
	return schemaHas(s, func(s *apiextensionsv1.JSONSchemaProps) bool {
		if s.XListType == nil || *s.XListType != "set" || s.Items == nil || s.Items.Schema == nil {
			return false
		}
		is := s.Items.Schema
		switch is.Type {
		case "array":
			return is.XListType != nil && *is.XListType != "atomic"
		case "object":
			return is.XMapType == nil || *is.XMapType != "atomic"
		}
		return false
	})
}

func hasInvalidMapListKeysMapSet(s *apiextensionsv1.JSONSchemaProps) bool {
	return schemaHas(s, func(s *apiextensionsv1.JSONSchemaProps) bool {
		return len(validateMapListKeysMapSet(s, path{})) > 0
	})
}

func allVersionsSpecifyOpenAPISchema(spec *specView) bool {
	if spec.validation != nil && spec.validation.OpenAPIV3Schema != nil {
		return true
	}
	for _, v := range spec.versions {
		if v.schema == nil || v.schema.OpenAPIV3Schema == nil {
			return false
		}
	}
	return true
}
