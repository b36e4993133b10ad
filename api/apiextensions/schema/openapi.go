package schema

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// vschema is the OpenAPI schema a node is validated against: the subset
// of kube-openapi's spec.Schema its SchemaValidator reads. It is built
// once and never changed, so validations may share it.
//
// There are two ways to build one, as upstream has two: from the CRD's
// JSONSchemaProps for custom resources (newValidationSchema: formats the
// API server does not know are dropped, x-kubernetes-int-or-string
// becomes the type list [integer, string]), and from a Structural for
// default values (fromStructural: formats kept, int-or-string untyped,
// nested additionalProperties dropped), as ValidateDefaults does.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/spec (Schema) and
// k8s.io/apiextensions-apiserver/pkg/apiserver/validation (ConvertJSONSchemaProps).
type vschema struct {
	types    []string // empty: any type
	nullable bool
	format   string

	maximum, minimum                   *float64
	exclusiveMaximum, exclusiveMinimum bool
	multipleOf                         *float64

	maxLength, minLength *int64
	pattern              string
	patternRe            *regexp.Regexp // nil when pattern is empty or invalid
	patternErr           error

	maxItems, minItems *int64
	uniqueItems        bool
	items              *vschema
	itemsTuple         []*vschema // items given as an array
	additionalItems    *vschemaOrBool

	enum []any

	maxProperties, minProperties *int64
	required                     []string
	properties                   map[string]*vschema
	propertyNames                []string // sorted keys of properties
	patternProperties            map[string]*vschema
	patternNames                 []string         // sorted keys of patternProperties
	patternREs                   []*regexp.Regexp // compiled patternNames, nil if invalid
	additionalProperties         *vschemaOrBool
	dependencies                 map[string]vdependency

	allOf, anyOf, oneOf []*vschema
	not                 *vschema
}

type vschemaOrBool struct {
	allows bool
	schema *vschema
}

type vdependency struct {
	schema     *vschema
	properties []string
}

func (v *vschema) hasType(t string) bool { return slices.Contains(v.types, t) }

// newValidationSchema converts a CRD schema as the API server does for
// custom resources.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/validation
// (ConvertJSONSchemaPropsWithPostProcess, StripUnsupportedFormatsPostProcessorForVersion).
func newValidationSchema(in *apiextensionsv1.JSONSchemaProps) (*vschema, error) {
	out := &vschema{
		nullable:         in.Nullable,
		format:           in.Format,
		maximum:          in.Maximum,
		exclusiveMaximum: in.ExclusiveMaximum,
		minimum:          in.Minimum,
		exclusiveMinimum: in.ExclusiveMinimum,
		multipleOf:       in.MultipleOf,
		maxLength:        in.MaxLength,
		minLength:        in.MinLength,
		pattern:          in.Pattern,
		maxItems:         in.MaxItems,
		minItems:         in.MinItems,
		uniqueItems:      in.UniqueItems,
		maxProperties:    in.MaxProperties,
		minProperties:    in.MinProperties,
		required:         in.Required,
	}
	if in.Type != "" {
		out.types = []string{in.Type}
	}
	if in.XIntOrString {
		out.types = []string{"integer", "string"}
	}
	if in.Enum != nil {
		out.enum = make([]any, len(in.Enum))
		for i, e := range in.Enum {
			v, err := DecodeJSON(e.Raw)
			if err != nil {
				return nil, fmt.Errorf("enum: %w", err)
			}
			out.enum[i] = v
		}
	}
	var err error
	for _, junctor := range []struct {
		in  []apiextensionsv1.JSONSchemaProps
		out *[]*vschema
	}{{in.AllOf, &out.allOf}, {in.OneOf, &out.oneOf}, {in.AnyOf, &out.anyOf}} {
		for i := range junctor.in {
			c, err := newValidationSchema(&junctor.in[i])
			if err != nil {
				return nil, err
			}
			*junctor.out = append(*junctor.out, c)
		}
	}
	if in.Not != nil {
		if out.not, err = newValidationSchema(in.Not); err != nil {
			return nil, err
		}
	}
	if out.properties, out.propertyNames, err = newValidationSchemaMap(in.Properties); err != nil {
		return nil, err
	}
	if out.patternProperties, out.patternNames, err = newValidationSchemaMap(in.PatternProperties); err != nil {
		return nil, err
	}
	if out.additionalProperties, err = newValidationSchemaOrBool(in.AdditionalProperties); err != nil {
		return nil, err
	}
	if out.additionalItems, err = newValidationSchemaOrBool(in.AdditionalItems); err != nil {
		return nil, err
	}
	if in.Items != nil {
		if in.Items.Schema != nil {
			if out.items, err = newValidationSchema(in.Items.Schema); err != nil {
				return nil, err
			}
		}
		for i := range in.Items.JSONSchemas {
			c, err := newValidationSchema(&in.Items.JSONSchemas[i])
			if err != nil {
				return nil, err
			}
			out.itemsTuple = append(out.itemsTuple, c)
		}
	}
	if in.Dependencies != nil {
		out.dependencies = make(map[string]vdependency, len(in.Dependencies))
		for k, d := range in.Dependencies {
			dep := vdependency{properties: d.Property}
			if d.Schema != nil {
				if dep.schema, err = newValidationSchema(d.Schema); err != nil {
					return nil, err
				}
			}
			out.dependencies[k] = dep
		}
	}
	stripUnsupportedFormat(out)
	out.compilePatterns()
	return out, nil
}

func newValidationSchemaMap(in map[string]apiextensionsv1.JSONSchemaProps) (map[string]*vschema, []string, error) {
	if in == nil {
		return nil, nil, nil
	}
	out := make(map[string]*vschema, len(in))
	names := make([]string, 0, len(in))
	for k := range in {
		s := in[k]
		v, err := newValidationSchema(&s)
		if err != nil {
			return nil, nil, err
		}
		out[k] = v
		names = append(names, k)
	}
	slices.Sort(names)
	return out, names, nil
}

func newValidationSchemaOrBool(in *apiextensionsv1.JSONSchemaPropsOrBool) (*vschemaOrBool, error) {
	if in == nil {
		return nil, nil
	}
	out := &vschemaOrBool{allows: in.Allows}
	if in.Schema != nil {
		var err error
		if out.schema, err = newValidationSchema(in.Schema); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// stripUnsupportedFormat drops a format the API server does not validate
// for the node's type, so that it is neither checked nor an error.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/validation
// (StripUnsupportedFormatsPostProcessorForVersion).
func stripUnsupportedFormat(s *vschema) {
	if s.format == "" {
		return
	}
	schemaType := ""
	if len(s.types) == 1 {
		schemaType = s.types[0]
	}
	switch schemaType {
	case "", "string":
		if !supportedStringFormats[normalizeFormat(s.format)] {
			s.format = ""
		}
	case "integer":
		if s.format != "int32" && s.format != "int64" {
			s.format = ""
		}
	case "number":
		if s.format != "float" && s.format != "double" {
			s.format = ""
		}
	default:
		s.format = ""
	}
}

// normalizeFormat is go-openapi's format name normalization: "date-time"
// and "datetime" are the same format.
func normalizeFormat(name string) string { return strings.ReplaceAll(name, "-", "") }

// fromStructural builds the validation schema of a Structural, as default
// values are validated.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema (Structural.ToKubeOpenAPI).
func fromStructural(s *Structural) *vschema {
	if s == nil {
		return nil
	}
	out := &vschema{}
	if s.Items != nil {
		out.items = fromStructural(s.Items)
	}
	if s.Properties != nil {
		out.properties = make(map[string]*vschema, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			out.properties[k] = fromStructural(&p)
			out.propertyNames = append(out.propertyNames, k)
		}
		slices.Sort(out.propertyNames)
	}
	if s.AdditionalProperties != nil {
		out.additionalProperties = &vschemaOrBool{allows: s.AdditionalProperties.Bool, schema: fromStructural(s.AdditionalProperties.Structural)}
	}
	genericToV(&s.Generic, out)
	valueValidationToV(s.ValueValidation, out)
	out.compilePatterns()
	return out
}

func genericToV(g *Generic, out *vschema) {
	if g.Type != "" {
		out.types = []string{g.Type}
	}
	out.nullable = g.Nullable
}

func valueValidationToV(v *ValueValidation, out *vschema) {
	if v == nil {
		return
	}
	out.format = v.Format
	out.maximum, out.exclusiveMaximum = v.Maximum, v.ExclusiveMaximum
	out.minimum, out.exclusiveMinimum = v.Minimum, v.ExclusiveMinimum
	out.maxLength, out.minLength, out.pattern = v.MaxLength, v.MinLength, v.Pattern
	out.maxItems, out.minItems, out.uniqueItems = v.MaxItems, v.MinItems, v.UniqueItems
	out.multipleOf = v.MultipleOf
	if v.Enum != nil {
		out.enum = make([]any, 0, len(v.Enum))
		for _, e := range v.Enum {
			out.enum = append(out.enum, e.Object)
		}
	}
	out.maxProperties, out.minProperties = v.MaxProperties, v.MinProperties
	out.required = v.Required
	for i := range v.AllOf {
		out.allOf = append(out.allOf, nestedToV(&v.AllOf[i]))
	}
	for i := range v.AnyOf {
		out.anyOf = append(out.anyOf, nestedToV(&v.AnyOf[i]))
	}
	for i := range v.OneOf {
		out.oneOf = append(out.oneOf, nestedToV(&v.OneOf[i]))
	}
	if v.Not != nil {
		out.not = nestedToV(v.Not)
	}
}

// nestedToV converts a junctor clause. Its additionalProperties are
// dropped, as upstream's conversion drops them.
func nestedToV(vv *NestedValueValidation) *vschema {
	out := &vschema{}
	valueValidationToV(&vv.ValueValidation, out)
	if vv.Items != nil {
		out.items = nestedToV(vv.Items)
	}
	if vv.Properties != nil {
		out.properties = make(map[string]*vschema, len(vv.Properties))
		for k := range vv.Properties {
			p := vv.Properties[k]
			out.properties[k] = nestedToV(&p)
			out.propertyNames = append(out.propertyNames, k)
		}
		slices.Sort(out.propertyNames)
	}
	genericToV(&vv.ForbiddenGenerics, out)
	out.compilePatterns()
	return out
}

// compilePatterns compiles the node's pattern and pattern property
// names once, when the schema is built, rather than per validation.
func (v *vschema) compilePatterns() {
	if v.pattern != "" {
		v.patternRe, v.patternErr = regexp.Compile(v.pattern)
	}
	if len(v.patternNames) > 0 {
		v.patternREs = make([]*regexp.Regexp, len(v.patternNames))
		for i, p := range v.patternNames {
			// An invalid pattern property matches nothing, as
			// regexp.MatchString's error is ignored upstream.
			v.patternREs[i], _ = regexp.Compile(p)
		}
	}
}
