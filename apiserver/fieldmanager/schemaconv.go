package fieldmanager

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// The names of the two types every converted schema has: untypedName is
// any value, replaced as a whole; deducedName is any value whose maps
// merge key by key (free-form objects, preserved unknown fields).
//
// Upstream: k8s.io/kube-openapi/pkg/schemaconv (untypedDef, deducedDef).
const (
	untypedName = "__untyped_atomic_"
	deducedName = "__untyped_deduced_"
)

// Well-known definitions upstream hard-codes rather than reads: a
// Quantity is a scalar (a string or a number), a RawExtension any value.
const (
	quantityDefinition     = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	rawExtensionDefinition = "io.k8s.apimachinery.pkg.runtime.RawExtension"
	objectMetaDefinition   = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
)

// ToSchema converts OpenAPI v3 definitions, by name, into a
// structured-merge-diff schema with one named type per definition. $refs
// (bare or in a one-element allOf) become named types, other nested
// schemas are inlined. preserveUnknownFields makes objects without
// additionalProperties keep (and merge) fields they do not declare, as a
// CRD with x-kubernetes-preserve-unknown-fields at its root does.
//
// Lists are atomic unless x-kubernetes-list-type says set or map (with
// x-kubernetes-list-map-keys), or their x-kubernetes-patch-strategy is
// merge: then they are maps keyed by x-kubernetes-patch-merge-key, or
// sets without one. Maps and structs merge field by field unless
// x-kubernetes-map-type is atomic. A schema without a type, or with
// x-kubernetes-int-or-string, is an untyped scalar.
//
// Upstream: k8s.io/kube-openapi/pkg/schemaconv (ToSchemaFromOpenAPI).
func ToSchema(models map[string]map[string]any, preserveUnknownFields bool) (*schema.Schema, error) {
	c := &converter{out: &schema.Schema{}}
	for _, name := range slices.Sorted(maps.Keys(models)) {
		m := models[name]
		if _, isRef := m["$ref"]; isRef {
			continue
		}
		var a schema.Atom
		switch name {
		case quantityDefinition:
			a = schema.Atom{Scalar: ptr(schema.Scalar("untyped"))}
		case rawExtensionDefinition:
			a = untypedAtom()
		default:
			a = c.atom(name, m, preserveUnknownFields)
		}
		if a == (schema.Atom{}) {
			continue
		}
		c.out.Types = append(c.out.Types, schema.TypeDef{Name: name, Atom: a})
	}
	if len(c.errs) > 0 {
		return nil, errors.New(strings.Join(c.errs, "\n"))
	}
	c.out.Types = append(c.out.Types,
		schema.TypeDef{Name: untypedName, Atom: untypedAtom()},
		schema.TypeDef{Name: deducedName, Atom: deducedAtom()})
	return c.out, nil
}

// converter collects the errors of one ToSchema call.
type converter struct {
	out  *schema.Schema
	errs []string
}

func (c *converter) errorf(where, format string, args ...any) {
	c.errs = append(c.errs, where+": "+fmt.Sprintf(format, args...))
}

// atom converts one schema node. preserve is whether an enclosing node
// set x-kubernetes-preserve-unknown-fields.
func (c *converter) atom(where string, m map[string]any, preserve bool) schema.Atom {
	if p, _ := m["x-kubernetes-preserve-unknown-fields"].(bool); p {
		preserve = true
	}
	if ios, _ := m["x-kubernetes-int-or-string"].(bool); ios {
		return schema.Atom{Scalar: ptr(schema.Scalar("untyped"))}
	}
	typ, _ := m["type"].(string)
	switch typ {
	case "":
		return schema.Atom{
			Scalar: ptr(schema.Scalar("untyped")),
			List:   c.list(where, m, preserve),
			Map:    c.object(where, m, preserve),
		}
	case "object":
		return schema.Atom{Map: c.object(where, m, preserve)}
	case "array":
		return schema.Atom{List: c.list(where, m, preserve)}
	case "integer", "number":
		return schema.Atom{Scalar: ptr(schema.Numeric)}
	case "boolean":
		return schema.Atom{Scalar: ptr(schema.Boolean)}
	case "string":
		// Formats other than plain strings and bytes (int-or-string,
		// date-time, ...) accept values that are not strings.
		switch format, _ := m["format"].(string); format {
		case "", "byte":
			return schema.Atom{Scalar: ptr(schema.String)}
		}
		return schema.Atom{Scalar: ptr(schema.Scalar("untyped"))}
	default:
		c.errorf(where, "unrecognized type: %q", typ)
		return schema.Atom{Scalar: ptr(schema.Scalar("untyped"))}
	}
}

// ref is the TypeRef of a property, item or additionalProperties schema:
// a named type for a $ref, else the schema inlined.
func (c *converter) ref(where string, m map[string]any, preserve bool) schema.TypeRef {
	if name, ok := refName(m); ok {
		tr := schema.TypeRef{NamedType: &name}
		rel, err := mapRelationship(m)
		if err != nil {
			c.errorf(where, "%v", err)
		}
		if rel != "" {
			tr.ElementRelationship = &rel
		}
		return tr
	}
	return schema.TypeRef{Inlined: c.atom(where, m, preserve)}
}

// refName is the definition a schema refers to: its $ref, or the only
// member of its allOf (how a reference with a description is written).
func refName(m map[string]any) (string, bool) {
	ref, _ := m["$ref"].(string)
	if ref == "" {
		if all, _ := m["allOf"].([]any); len(all) == 1 {
			if one, ok := all[0].(map[string]any); ok {
				ref, _ = one["$ref"].(string)
			}
		}
	}
	if ref == "" {
		return "", false
	}
	return ref[strings.LastIndex(ref, "/")+1:], true
}

// object is the Map of an object schema: its properties as fields, and
// what its other keys hold.
//
// Upstream: k8s.io/kube-openapi/pkg/schemaconv (convert.parseObject).
func (c *converter) object(where string, m map[string]any, preserve bool) *schema.Map {
	props, _ := m["properties"].(map[string]any)
	if embedded, _ := m["x-kubernetes-embedded-resource"].(bool); embedded {
		props = embeddedResourceProperties(props)
	}
	var fields []schema.StructField
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		fields = append(fields, schema.StructField{
			Name:    name,
			Type:    c.ref(where+"."+name, p, preserve),
			Default: p["default"],
		})
	}
	var elem schema.TypeRef
	switch ap := m["additionalProperties"].(type) {
	case nil:
		// An object that declares nothing is free-form; one that declares
		// properties keeps only those, unless unknown fields are
		// preserved.
		if preserve || len(props) == 0 {
			elem = schema.TypeRef{NamedType: ptrString(deducedName)}
		}
	case map[string]any:
		elem = c.ref(where+"[*]", ap, preserve)
	case bool:
		if ap {
			elem = schema.TypeRef{NamedType: ptrString(deducedName)}
		}
	}
	rel, err := mapRelationship(m)
	if err != nil {
		c.errorf(where, "%v", err)
	}
	return &schema.Map{Fields: fields, ElementType: elem, ElementRelationship: rel}
}

// embeddedResourceProperties adds what every embedded object has
// (apiVersion, kind, metadata) to the properties of a node marked
// x-kubernetes-embedded-resource, as the schemas kube-apiserver publishes
// for CRDs do.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder
// (addEmbeddedProperties).
func embeddedResourceProperties(props map[string]any) map[string]any {
	out := maps.Clone(props)
	if out == nil {
		out = map[string]any{}
	}
	for _, name := range []string{"apiVersion", "kind"} {
		if _, ok := out[name]; !ok {
			out[name] = map[string]any{"type": "string"}
		}
	}
	if _, ok := out["metadata"]; !ok {
		out["metadata"] = map[string]any{"$ref": "#/components/schemas/" + objectMetaDefinition}
	}
	return out
}

// list is the List of an array schema.
//
// Upstream: k8s.io/kube-openapi/pkg/schemaconv (convert.parseList).
func (c *converter) list(where string, m map[string]any, preserve bool) *schema.List {
	rel, keys, err := listRelationship(m)
	if err != nil {
		c.errorf(where, "%v", err)
	}
	elem := schema.TypeRef{NamedType: ptrString(untypedName)}
	switch items := m["items"].(type) {
	case map[string]any:
		elem = c.ref(where+"[]", items, preserve)
	case nil:
		if typ, _ := m["type"].(string); typ != "" {
			c.errorf(where, "`items` must be specified on arrays")
		}
	default:
		c.errorf(where, "structural schema arrays must have exactly one member subtype")
		elem = schema.TypeRef{NamedType: ptrString(deducedName)}
	}
	return &schema.List{ElementType: elem, ElementRelationship: rel, Keys: keys}
}

// listRelationship reads how a list merges: x-kubernetes-list-type first,
// then the strategic merge patch strategy, else atomic.
//
// Upstream: k8s.io/kube-openapi/pkg/schemaconv (getListElementRelationship).
func listRelationship(m map[string]any) (schema.ElementRelationship, []string, error) {
	if lt, ok := m["x-kubernetes-list-type"]; ok {
		switch lt {
		case "atomic":
			return schema.Atomic, nil, nil
		case "set":
			return schema.Associative, nil, nil
		case "map":
			raw, ok := m["x-kubernetes-list-map-keys"]
			if !ok {
				return schema.Associative, nil, errors.New("missing map keys")
			}
			keys, ok := stringSlice(raw)
			if !ok {
				return schema.Associative, nil, fmt.Errorf("uninterpreted map keys: %#v", raw)
			}
			return schema.Associative, keys, nil
		default:
			return schema.Atomic, nil, fmt.Errorf("unknown list type %v", lt)
		}
	}
	if ps, ok := m["x-kubernetes-patch-strategy"]; ok {
		switch ps {
		case "merge", "merge,retainKeys":
			if raw, ok := m["x-kubernetes-patch-merge-key"]; ok {
				key, ok := raw.(string)
				if !ok {
					return schema.Associative, nil, fmt.Errorf("uninterpreted merge key: %#v", raw)
				}
				return schema.Associative, []string{key}, nil
			}
			// Merge without a key: a set of scalars.
			return schema.Associative, nil, nil
		case "retainKeys":
			return schema.Atomic, nil, nil
		default:
			return schema.Atomic, nil, fmt.Errorf("unknown patch strategy %v", ps)
		}
	}
	return schema.Atomic, nil, nil
}

// mapRelationship reads x-kubernetes-map-type: "" when unset (the type's
// own, separable by default).
//
// Upstream: k8s.io/kube-openapi/pkg/schemaconv (getMapElementRelationship).
func mapRelationship(m map[string]any) (schema.ElementRelationship, error) {
	mt, ok := m["x-kubernetes-map-type"]
	if !ok {
		return "", nil
	}
	switch mt {
	case "atomic":
		return schema.Atomic, nil
	case "granular":
		return schema.Separable, nil
	default:
		return "", fmt.Errorf("unknown map type %v", mt)
	}
}

func stringSlice(v any) ([]string, bool) {
	switch t := v.(type) {
	case []string:
		return t, true
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	return nil, false
}

// untypedAtom is any value, replaced as a whole.
func untypedAtom() schema.Atom {
	return schema.Atom{
		Scalar: ptr(schema.Scalar("untyped")),
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: ptrString(untypedName)}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: ptrString(untypedName)}, ElementRelationship: schema.Atomic},
	}
}

// deducedAtom is any value: a map merges key by key, a list is atomic.
func deducedAtom() schema.Atom {
	return schema.Atom{
		Scalar: ptr(schema.Scalar("untyped")),
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: ptrString(untypedName)}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: ptrString(deducedName)}, ElementRelationship: schema.Separable},
	}
}

func ptr(s schema.Scalar) *schema.Scalar { return &s }

func ptrString(s string) *string { return &s }
