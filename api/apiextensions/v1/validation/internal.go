package validation

import (
	"encoding/json"
	"reflect"

	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// specView is a CRD spec as upstream's internal version has it: a schema,
// subresources, columns or selectable fields that are the same in every
// version are hoisted to the spec and cleared in the versions, and the
// first version's name is spec.version.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1
// (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec).
type specView struct {
	*apiextensionsv1.CustomResourceDefinitionSpec
	version          string
	validation       *apiextensionsv1.CustomResourceValidation
	subresources     *apiextensionsv1.CustomResourceSubresources
	columns          []apiextensionsv1.CustomResourceColumnDefinition
	selectableFields []apiextensionsv1.SelectableField
	versions         []versionView
}

type versionView struct {
	*apiextensionsv1.CustomResourceDefinitionVersion
	schema           *apiextensionsv1.CustomResourceValidation
	subresources     *apiextensionsv1.CustomResourceSubresources
	columns          []apiextensionsv1.CustomResourceColumnDefinition
	selectableFields []apiextensionsv1.SelectableField
}

func newSpecView(spec *apiextensionsv1.CustomResourceDefinitionSpec) *specView {
	v := &specView{CustomResourceDefinitionSpec: spec}
	for i := range spec.Versions {
		ver := &spec.Versions[i]
		v.versions = append(v.versions, versionView{
			CustomResourceDefinitionVersion: ver,
			schema:                          ver.Schema,
			subresources:                    ver.Subresources,
			columns:                         ver.AdditionalPrinterColumns,
			selectableFields:                ver.SelectableFields,
		})
	}
	if len(v.versions) == 0 {
		return v
	}
	v.version = v.versions[0].Name
	first := v.versions[0]
	sameSchema, sameSub, sameCols, sameFields := true, true, true, true
	for _, ver := range v.versions {
		sameSchema = sameSchema && semanticEqual(ver.schema, first.schema)
		sameSub = sameSub && semanticEqual(ver.subresources, first.subresources)
		sameCols = sameCols && semanticEqual(ver.columns, first.columns)
		sameFields = sameFields && semanticEqual(ver.selectableFields, first.selectableFields)
	}
	if sameSchema {
		v.validation = first.schema
	}
	if sameSub {
		v.subresources = first.subresources
	}
	if sameCols {
		v.columns = first.columns
	}
	if sameFields {
		v.selectableFields = first.selectableFields
	}
	for i := range v.versions {
		if sameSchema {
			v.versions[i].schema = nil
		}
		if sameSub {
			v.versions[i].subresources = nil
		}
		if sameCols {
			v.versions[i].columns = nil
		}
		if sameFields {
			v.versions[i].selectableFields = nil
		}
	}
	return v
}

// semanticEqual compares two API values as upstream's
// equality.Semantic.DeepEqual compares their internal forms: through
// their JSON, with JSON values decoded (so key order and whitespace in
// defaults do not matter, and nil equals empty).
func semanticEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return false
	}
	va, errA := schema.DecodeJSON(ja)
	vb, errB := schema.DecodeJSON(jb)
	return errA == nil && errB == nil && reflect.DeepEqual(va, vb)
}

// The internal forms of the CRD types, as upstream's error messages print
// them: their JSON uses the Go field names, in the internal field order,
// and omits nothing. They only render bad values.
type internalVersion struct {
	Name                     string
	Served                   bool
	Storage                  bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   *internalValidation
	Subresources             *internalSubresources
	AdditionalPrinterColumns []internalColumn
	SelectableFields         []internalSelectableField
}

type internalValidation struct {
	OpenAPIV3Schema *internalSchema
}

type internalSubresources struct {
	Status *struct{}
	Scale  *internalScale
}

type internalScale struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  *string
}

type internalColumn struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int32
	JSONPath    string
}

type internalSelectableField struct {
	JSONPath string
}

type internalSchema struct {
	ID                     string
	Schema                 string
	Ref                    *string
	Description            string
	Type                   string
	Nullable               bool
	Format                 string
	Title                  string
	Default                *any
	Maximum                *float64
	ExclusiveMaximum       bool
	Minimum                *float64
	ExclusiveMinimum       bool
	MaxLength              *int64
	MinLength              *int64
	Pattern                string
	MaxItems               *int64
	MinItems               *int64
	UniqueItems            bool
	MultipleOf             *float64
	Enum                   []any
	MaxProperties          *int64
	MinProperties          *int64
	Required               []string
	Items                  *internalSchemaOrArray
	AllOf                  []internalSchema
	OneOf                  []internalSchema
	AnyOf                  []internalSchema
	Not                    *internalSchema
	Properties             map[string]internalSchema
	AdditionalProperties   *internalSchemaOrBool
	PatternProperties      map[string]internalSchema
	Dependencies           map[string]internalSchemaOrStringArray
	AdditionalItems        *internalSchemaOrBool
	Definitions            map[string]internalSchema
	ExternalDocs           *internalExternalDocs
	Example                *any
	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           []internalRule
}

type internalSchemaOrArray struct {
	Schema      *internalSchema
	JSONSchemas []internalSchema
}

type internalSchemaOrBool struct {
	Allows bool
	Schema *internalSchema
}

type internalSchemaOrStringArray struct {
	Schema   *internalSchema
	Property []string
}

type internalExternalDocs struct {
	Description string
	URL         string
}

type internalRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *apiextensionsv1.FieldValueErrorReason
	FieldPath         string
	OptionalOldSelf   *bool
}

func toInternalVersions(vs []versionView) []internalVersion {
	if vs == nil {
		return nil
	}
	out := make([]internalVersion, len(vs))
	for i, v := range vs {
		out[i] = internalVersion{
			Name: v.Name, Served: v.Served, Storage: v.Storage, Deprecated: v.Deprecated,
			DeprecationWarning: v.DeprecationWarning,
		}
		if v.schema != nil {
			out[i].Schema = &internalValidation{OpenAPIV3Schema: toInternalSchemaPtr(v.schema.OpenAPIV3Schema)}
		}
		if v.subresources != nil {
			out[i].Subresources = &internalSubresources{}
			if v.subresources.Status != nil {
				out[i].Subresources.Status = &struct{}{}
			}
			if sc := v.subresources.Scale; sc != nil {
				out[i].Subresources.Scale = &internalScale{sc.SpecReplicasPath, sc.StatusReplicasPath, sc.LabelSelectorPath}
			}
		}
		if v.columns != nil {
			out[i].AdditionalPrinterColumns = make([]internalColumn, len(v.columns))
			for j, c := range v.columns {
				out[i].AdditionalPrinterColumns[j] = internalColumn{c.Name, c.Type, c.Format, c.Description, c.Priority, c.JSONPath}
			}
		}
		if v.selectableFields != nil {
			out[i].SelectableFields = make([]internalSelectableField, len(v.selectableFields))
			for j, f := range v.selectableFields {
				out[i].SelectableFields[j] = internalSelectableField{f.JSONPath}
			}
		}
	}
	return out
}

func toInternalSchemaPtr(s *apiextensionsv1.JSONSchemaProps) *internalSchema {
	if s == nil {
		return nil
	}
	is := toInternalSchema(s)
	return &is
}

func toInternalJSON(j *apiextensionsv1.JSON) *any {
	if j == nil {
		return nil
	}
	v, _ := schema.DecodeJSON(j.Raw)
	return &v
}

func toInternalSchemas(in []apiextensionsv1.JSONSchemaProps) []internalSchema {
	if in == nil {
		return nil
	}
	out := make([]internalSchema, len(in))
	for i := range in {
		out[i] = toInternalSchema(&in[i])
	}
	return out
}

func toInternalSchemaMap(in map[string]apiextensionsv1.JSONSchemaProps) map[string]internalSchema {
	if in == nil {
		return nil
	}
	out := make(map[string]internalSchema, len(in))
	for k := range in {
		v := in[k]
		out[k] = toInternalSchema(&v)
	}
	return out
}

func toInternalOrBool(in *apiextensionsv1.JSONSchemaPropsOrBool) *internalSchemaOrBool {
	if in == nil {
		return nil
	}
	return &internalSchemaOrBool{Allows: in.Allows, Schema: toInternalSchemaPtr(in.Schema)}
}

func toInternalSchema(s *apiextensionsv1.JSONSchemaProps) internalSchema {
	out := internalSchema{
		ID: s.ID, Schema: string(s.Schema), Ref: s.Ref, Description: s.Description, Type: s.Type,
		Nullable: s.Nullable, Format: s.Format, Title: s.Title, Default: toInternalJSON(s.Default),
		Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum, Minimum: s.Minimum,
		ExclusiveMinimum: s.ExclusiveMinimum, MaxLength: s.MaxLength, MinLength: s.MinLength,
		Pattern: s.Pattern, MaxItems: s.MaxItems, MinItems: s.MinItems, UniqueItems: s.UniqueItems,
		MultipleOf: s.MultipleOf, MaxProperties: s.MaxProperties, MinProperties: s.MinProperties,
		Required: s.Required, AllOf: toInternalSchemas(s.AllOf), OneOf: toInternalSchemas(s.OneOf),
		AnyOf: toInternalSchemas(s.AnyOf), Not: toInternalSchemaPtr(s.Not),
		Properties:             toInternalSchemaMap(s.Properties),
		AdditionalProperties:   toInternalOrBool(s.AdditionalProperties),
		PatternProperties:      toInternalSchemaMap(s.PatternProperties),
		AdditionalItems:        toInternalOrBool(s.AdditionalItems),
		Definitions:            toInternalSchemaMap(s.Definitions),
		Example:                toInternalJSON(s.Example),
		XPreserveUnknownFields: s.XPreserveUnknownFields, XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString: s.XIntOrString, XListMapKeys: s.XListMapKeys, XListType: s.XListType, XMapType: s.XMapType,
	}
	if s.Enum != nil {
		out.Enum = make([]any, len(s.Enum))
		for i := range s.Enum {
			out.Enum[i], _ = schema.DecodeJSON(s.Enum[i].Raw)
		}
	}
	if s.Items != nil {
		out.Items = &internalSchemaOrArray{Schema: toInternalSchemaPtr(s.Items.Schema), JSONSchemas: toInternalSchemas(s.Items.JSONSchemas)}
	}
	if s.Dependencies != nil {
		out.Dependencies = make(map[string]internalSchemaOrStringArray, len(s.Dependencies))
		for k, d := range s.Dependencies {
			out.Dependencies[k] = internalSchemaOrStringArray{Schema: toInternalSchemaPtr(d.Schema), Property: d.Property}
		}
	}
	if s.ExternalDocs != nil {
		out.ExternalDocs = &internalExternalDocs{s.ExternalDocs.Description, s.ExternalDocs.URL}
	}
	if s.XValidations != nil {
		out.XValidations = make([]internalRule, len(s.XValidations))
		for i, r := range s.XValidations {
			out.XValidations[i] = internalRule{r.Rule, r.Message, r.MessageExpression, r.Reason, r.FieldPath, r.OptionalOldSelf}
		}
	}
	return out
}
