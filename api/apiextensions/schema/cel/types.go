package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/minicp/minicp/api/apiextensions/schema"
)

// declType is the CEL type of a schema node.
//
// Upstream: k8s.io/apiserver/pkg/cel (DeclType) and
// k8s.io/apiserver/pkg/cel/common (SchemaDeclType).
type declType struct {
	celType *types.Type
	// fields are an object type's fields, by escaped property name.
	fields map[string]*declType
	// elem is the element type of a list or the value type of a map.
	elem *declType
}

func (d *declType) isObject() bool { return d.fields != nil }

func (d *declType) isMap() bool { return d.celType.Kind() == types.MapKind }

var (
	dynDecl       = &declType{celType: types.DynType}
	stringDecl    = &declType{celType: types.StringType}
	bytesDecl     = &declType{celType: types.BytesType}
	durationDecl  = &declType{celType: types.DurationType}
	timestampDecl = &declType{celType: types.TimestampType}
	boolDecl      = &declType{celType: types.BoolType}
	doubleDecl    = &declType{celType: types.DoubleType}
	intDecl       = &declType{celType: types.IntType}
)

// nameMaxLength bounds metadata.name, as a DNS subdomain.
const nameMaxLength = 253

// withTypeAndObjectMeta adds apiVersion, kind and metadata (name and
// generateName only, the fields rules may read) to the schema of a
// resource root or embedded resource.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model (WithTypeAndObjectMeta).
func withTypeAndObjectMeta(s *schema.Structural) *schema.Structural {
	if s.Properties != nil && s.Properties["kind"].Type == "string" && s.Properties["apiVersion"].Type == "string" &&
		s.Properties["metadata"].Type == "object" && s.Properties["metadata"].Properties != nil &&
		s.Properties["metadata"].Properties["name"].Type == "string" &&
		s.Properties["metadata"].Properties["generateName"].Type == "string" {
		return s
	}
	result := &schema.Structural{
		AdditionalProperties: s.AdditionalProperties,
		Generic:              s.Generic,
		Extensions:           s.Extensions,
		ValueValidation:      s.ValueValidation,
		ValidationExtensions: s.ValidationExtensions,
	}
	props := make(map[string]schema.Structural, len(s.Properties)+3)
	for k, p := range s.Properties {
		props[k] = p
	}
	str := schema.Structural{Generic: schema.Generic{Type: "string"}}
	props["kind"] = str
	props["apiVersion"] = str
	metaProps := s.Properties["metadata"].Properties
	props["metadata"] = schema.Structural{
		Generic: schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{
			"name":         cappedLength(metaProps["name"], nameMaxLength),
			"generateName": cappedLength(metaProps["generateName"], nameMaxLength-1),
		},
	}
	result.Properties = props
	return result
}

func cappedLength(s schema.Structural, maxLen int64) schema.Structural {
	out := schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: &maxLen}}
	if s.ValueValidation != nil && s.ValueValidation.MaxLength != nil && *s.ValueValidation.MaxLength < maxLen {
		out.ValueValidation.MaxLength = s.ValueValidation.MaxLength
	}
	return out
}

// newDeclType returns the CEL type of s, or nil for a node CEL cannot
// type (no type and not int-or-string, an array without items). Object
// types are named name, and nested ones after their path from it, so
// that the checker can resolve their fields.
func newDeclType(s *schema.Structural, isResourceRoot bool, name string, registry map[string]*declType) *declType {
	if s == nil {
		return nil
	}
	if s.XIntOrString {
		return dynDecl
	}
	if isResourceRoot {
		s = withTypeAndObjectMeta(s)
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		elem := newDeclType(s.Items, s.Items.XEmbeddedResource, name+".@idx", registry)
		if elem == nil {
			return nil
		}
		return &declType{celType: types.NewListType(elem.celType), elem: elem}
	case "object":
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			ap := s.AdditionalProperties.Structural
			elem := newDeclType(ap, ap.XEmbeddedResource, name+".@elem", registry)
			if elem == nil {
				return nil
			}
			return &declType{celType: types.NewMapType(types.StringType, elem.celType), elem: elem}
		}
		d := &declType{celType: types.NewObjectType(name), fields: map[string]*declType{}}
		for k := range s.Properties {
			prop := s.Properties[k]
			escaped, ok := Escape(k)
			if !ok {
				continue
			}
			if ft := newDeclType(&prop, prop.XEmbeddedResource, name+"."+escaped, registry); ft != nil {
				d.fields[escaped] = ft
			}
		}
		registry[name] = d
		return d
	case "string":
		switch formatOf(s) {
		case "byte":
			return bytesDecl
		case "duration":
			return durationDecl
		case "date", "date-time":
			return timestampDecl
		}
		return stringDecl
	case "boolean":
		return boolDecl
	case "number":
		return doubleDecl
	case "integer":
		return intDecl
	}
	return nil
}

func formatOf(s *schema.Structural) string {
	if s.ValueValidation == nil {
		return ""
	}
	return s.ValueValidation.Format
}

// typeProvider resolves the object types of one schema for the checker
// and hands everything else to the environment's provider.
//
// Upstream: k8s.io/apiserver/pkg/cel (DeclTypeProvider).
type typeProvider struct {
	types.Provider
	types.Adapter
	registry map[string]*declType
}

// withDeclTypes installs a typeProvider for registry on an environment.
func withDeclTypes(registry map[string]*declType) cel.EnvOption {
	return func(e *cel.Env) (*cel.Env, error) {
		p := &typeProvider{Provider: e.CELTypeProvider(), Adapter: e.CELTypeAdapter(), registry: registry}
		e, err := cel.CustomTypeProvider(p)(e)
		if err != nil {
			return nil, err
		}
		return cel.CustomTypeAdapter(p)(e)
	}
}

// FindStructType implements types.Provider.
func (p *typeProvider) FindStructType(name string) (*types.Type, bool) {
	if d, ok := p.registry[name]; ok {
		return types.NewTypeTypeWithParam(d.celType), true
	}
	return p.Provider.FindStructType(name)
}

// FindStructFieldNames implements types.Provider.
func (p *typeProvider) FindStructFieldNames(name string) ([]string, bool) {
	if d, ok := p.registry[name]; ok {
		names := make([]string, 0, len(d.fields))
		for n := range d.fields {
			names = append(names, n)
		}
		return names, true
	}
	return p.Provider.FindStructFieldNames(name)
}

// FindStructFieldType implements types.Provider. A keyword may be used
// as a field name unescaped ("self.namespace"), as Kubernetes allows
// from 1.31 on.
func (p *typeProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	d, ok := p.registry[name]
	if !ok {
		return p.Provider.FindStructFieldType(name, field)
	}
	f, ok := d.fields[field]
	if !ok && celReservedSymbols[field] {
		f, ok = d.fields["__"+field+"__"]
	}
	if !ok {
		return nil, false
	}
	return &types.FieldType{Type: f.celType}, true
}

// NativeToValue implements types.Adapter.
func (p *typeProvider) NativeToValue(v any) ref.Val { return p.Adapter.NativeToValue(v) }
