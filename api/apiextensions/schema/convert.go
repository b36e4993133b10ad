package schema

import (
	"errors"
	"fmt"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// NewStructural converts a CRD schema into a Structural, decoding its
// defaults, enums and examples. It fails only on what a structural schema
// cannot express at all (id, $schema, $ref, patternProperties,
// dependencies, additionalItems, definitions, items as an array, a false
// x-kubernetes-preserve-unknown-fields) or on undecodable JSON; the
// structural rules themselves are checked by ValidateStructural. A nil
// props gives a nil Structural. props is not retained.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema (NewStructural).
func NewStructural(props *apiextensionsv1.JSONSchemaProps) (*Structural, error) {
	if props == nil {
		return nil, nil
	}
	v, err := newValidationSchema(props)
	if err != nil {
		return nil, err
	}
	return newStructural(props, v)
}

// newStructural builds the node of props, whose validation schema is v.
func newStructural(s *apiextensionsv1.JSONSchemaProps, v *vschema) (*Structural, error) {
	if err := validateUnsupportedFields(s); err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	g, err := newGenerics(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	ss := &Structural{
		Generic:              g,
		Extensions:           x,
		ValueValidation:      vv,
		ValidationExtensions: ValidationExtensions{XValidations: s.XValidations},
		validator:            v,
	}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return nil, errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if s.Items.Schema != nil {
			if ss.Items, err = newStructural(s.Items.Schema, v.items); err != nil {
				return nil, err
			}
		}
	}
	if len(s.Properties) > 0 {
		ss.Properties = make(map[string]Structural, len(s.Properties))
		for k := range s.Properties {
			prop := s.Properties[k]
			fld, err := newStructural(&prop, v.properties[k])
			if err != nil {
				return nil, err
			}
			ss.Properties[k] = *fld
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			apSchema, err := newStructural(ap.Schema, v.additionalProperties.schema)
			if err != nil {
				return nil, err
			}
			ss.AdditionalProperties = &StructuralOrBool{Structural: apSchema, Bool: true}
		} else {
			ss.AdditionalProperties = &StructuralOrBool{Bool: ap.Allows}
		}
	}
	return ss, nil
}

func newGenerics(s *apiextensionsv1.JSONSchemaProps) (Generic, error) {
	g := Generic{Type: s.Type, Description: s.Description, Title: s.Title, Nullable: s.Nullable}
	if s.Default != nil {
		d, err := DecodeJSON(s.Default.Raw)
		if err != nil {
			return g, fmt.Errorf("default: %w", err)
		}
		g.Default = JSON{Object: d}
	}
	if s.ExternalDocs != nil {
		g.ExternalDocs = &ExternalDocumentation{Description: s.ExternalDocs.Description, URL: s.ExternalDocs.URL}
	}
	if s.Example != nil {
		e, err := DecodeJSON(s.Example.Raw)
		if err != nil {
			return g, fmt.Errorf("example: %w", err)
		}
		g.Example = JSON{Object: e}
	}
	return g, nil
}

func newValueValidation(s *apiextensionsv1.JSONSchemaProps) (*ValueValidation, error) {
	not, err := newNestedValueValidation(s.Not)
	if err != nil {
		return nil, err
	}
	v := &ValueValidation{
		Format:           s.Format,
		Maximum:          s.Maximum,
		ExclusiveMaximum: s.ExclusiveMaximum,
		Minimum:          s.Minimum,
		ExclusiveMinimum: s.ExclusiveMinimum,
		MaxLength:        s.MaxLength,
		MinLength:        s.MinLength,
		Pattern:          s.Pattern,
		MaxItems:         s.MaxItems,
		MinItems:         s.MinItems,
		UniqueItems:      s.UniqueItems,
		MultipleOf:       s.MultipleOf,
		MaxProperties:    s.MaxProperties,
		MinProperties:    s.MinProperties,
		Required:         s.Required,
		Not:              not,
	}
	for _, e := range s.Enum {
		d, err := DecodeJSON(e.Raw)
		if err != nil {
			return nil, fmt.Errorf("enum: %w", err)
		}
		v.Enum = append(v.Enum, JSON{Object: d})
	}
	for _, junctor := range []struct {
		in  []apiextensionsv1.JSONSchemaProps
		out *[]NestedValueValidation
	}{{s.AllOf, &v.AllOf}, {s.AnyOf, &v.AnyOf}, {s.OneOf, &v.OneOf}} {
		for i := range junctor.in {
			clause, err := newNestedValueValidation(&junctor.in[i])
			if err != nil {
				return nil, err
			}
			*junctor.out = append(*junctor.out, *clause)
		}
	}
	return v, nil
}

func newNestedValueValidation(s *apiextensionsv1.JSONSchemaProps) (*NestedValueValidation, error) {
	if s == nil {
		return nil, nil
	}
	if err := validateUnsupportedFields(s); err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	g, err := newGenerics(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	v := &NestedValueValidation{
		ValueValidation:      *vv,
		ValidationExtensions: ValidationExtensions{XValidations: s.XValidations},
		ForbiddenGenerics:    g,
		ForbiddenExtensions:  x,
	}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return nil, errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if v.Items, err = newNestedValueValidation(s.Items.Schema); err != nil {
			return nil, err
		}
	}
	if s.Properties != nil {
		v.Properties = make(map[string]NestedValueValidation, len(s.Properties))
		for k := range s.Properties {
			prop := s.Properties[k]
			nvv, err := newNestedValueValidation(&prop)
			if err != nil {
				return nil, err
			}
			v.Properties[k] = *nvv
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			if v.AdditionalProperties, err = newNestedValueValidation(ap.Schema); err != nil {
				return nil, err
			}
		} else if ap.Allows {
			v.AdditionalProperties = &NestedValueValidation{}
		}
	}
	return v, nil
}

func newExtensions(s *apiextensionsv1.JSONSchemaProps) (Extensions, error) {
	x := Extensions{
		XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString:      s.XIntOrString,
		XListMapKeys:      s.XListMapKeys,
		XListType:         s.XListType,
		XMapType:          s.XMapType,
	}
	if s.XPreserveUnknownFields != nil {
		if !*s.XPreserveUnknownFields {
			return x, errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
		}
		x.XPreserveUnknownFields = true
	}
	return x, nil
}

func validateUnsupportedFields(s *apiextensionsv1.JSONSchemaProps) error {
	switch {
	case s.ID != "":
		return errors.New("OpenAPIV3Schema 'id' is not supported")
	case s.Schema != "":
		return errors.New("OpenAPIV3Schema 'schema' is not supported")
	case s.Ref != nil && *s.Ref != "":
		return errors.New("OpenAPIV3Schema '$ref' is not supported")
	case len(s.PatternProperties) > 0:
		return errors.New("OpenAPIV3Schema 'patternProperties' is not supported")
	case len(s.Dependencies) > 0:
		return errors.New("OpenAPIV3Schema 'dependencies' is not supported")
	case s.AdditionalItems != nil:
		return errors.New("OpenAPIV3Schema 'additionalItems' is not supported")
	case len(s.Definitions) > 0:
		return errors.New("OpenAPIV3Schema 'definitions' is not supported")
	}
	return nil
}
