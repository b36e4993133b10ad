package apiserver

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

//go:generate go run openapi_descriptions_gen.go -o openapi_descriptions.go

// The schemas of built-in kinds are generated from their Go types by
// reflection, as upstream's openapi-gen generates them from the same
// types at build time: JSON tags name the properties, Go kinds give the
// types and formats, struct types become definitions named as upstream
// names them and referred to with $ref, and the patchStrategy and
// patchMergeKey tags become x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key. Doc comments are not in the binary, so
// `go generate` extracts them into openapiDescriptions.
//
// Upstream: k8s.io/kube-openapi/pkg/generators (openapi-gen) and
// k8s.io/kube-openapi/pkg/builder3.

// openAPIFlavor is the OpenAPI version a schema is built for: the two
// publish the same types but spell references and a few special types
// differently.
type openAPIFlavor int

const (
	// openAPIV3 schemas go under components.schemas; a reference with
	// siblings (a description) is wrapped in allOf, as OpenAPI 3.0 ignores
	// the siblings of a bare $ref.
	openAPIV3 openAPIFlavor = iota
	// openAPIV2 (swagger) schemas go under definitions; a reference
	// keeps its description beside it.
	openAPIV2
)

func (f openAPIFlavor) refPrefix() string {
	if f == openAPIV2 {
		return "#/definitions/"
	}
	return "#/components/schemas/"
}

// definitionBuilder collects the definitions of Go types and of every
// type they refer to. It is not safe for concurrent use; build one per
// document.
type definitionBuilder struct {
	flavor openAPIFlavor
	// defs are the definitions built so far, by name.
	defs map[string]map[string]any
	// names are the definition names of the struct types seen; a type is
	// named before its fields are walked, so recursive types terminate.
	names map[reflect.Type]string
}

func newDefinitionBuilder(flavor openAPIFlavor) *definitionBuilder {
	return &definitionBuilder{flavor: flavor, defs: map[string]map[string]any{}, names: map[reflect.Type]string{}}
}

// addKind adds the definition of a kind's Go type, tagged with the
// kind's x-kubernetes-group-version-kind, and returns its name.
func (b *definitionBuilder) addKind(t reflect.Type, gvk runtime.GroupVersionKind) string {
	name := b.define(t)
	def := b.defs[name]
	gvks, _ := def["x-kubernetes-group-version-kind"].([]any)
	entry := map[string]any{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind}
	for _, g := range gvks {
		if reflect.DeepEqual(g, entry) {
			return name
		}
	}
	def["x-kubernetes-group-version-kind"] = append(gvks, entry)
	return name
}

// ref is a reference to the definition name.
func (b *definitionBuilder) ref(name string) map[string]any {
	return map[string]any{"$ref": b.flavor.refPrefix() + name}
}

// define builds t's definition (t a struct type or a special type) and
// returns its name.
func (b *definitionBuilder) define(t reflect.Type) string {
	if name, ok := b.names[t]; ok {
		return name
	}
	name := openAPIDefinitionName(t)
	b.names[t] = name
	if special, ok := specialOpenAPISchema(t, b.flavor); ok {
		b.defs[name] = special
		return name
	}
	def := map[string]any{"type": "object"}
	b.defs[name] = def
	if desc := openAPIDescriptions[descriptionKey(t)]; desc != "" {
		def["description"] = desc
	}
	props := map[string]any{}
	var required []any
	b.addFields(t, props, &required)
	for prop, markers := range openAPIMarkers[name] {
		if p, ok := props[prop].(map[string]any); ok {
			maps.Copy(p, markers)
		}
	}
	if openAPIAtomicStructs[name] {
		def["x-kubernetes-map-type"] = "atomic"
	}
	if len(props) > 0 {
		def["properties"] = props
	}
	if len(required) > 0 {
		def["required"] = required
	}
	return name
}

// addFields adds the properties of struct t's fields to props, the
// fields of embedded structs without a JSON name as its own, as
// encoding/json does.
func (b *definitionBuilder) addFields(t reflect.Type, props map[string]any, required *[]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		if f.Anonymous && (name == "" || strings.Contains(","+opts+",", ",inline,")) {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				b.addFields(ft, props, required)
				continue
			}
		}
		if !hasTag || name == "" {
			name = f.Name
		}
		prop := b.propertySchema(ft, fieldDescription(t, f, name))
		if strategy := f.Tag.Get("patchStrategy"); strategy != "" {
			prop["x-kubernetes-patch-strategy"] = strategy
		}
		if key := f.Tag.Get("patchMergeKey"); key != "" {
			prop["x-kubernetes-patch-merge-key"] = key
		}
		props[name] = prop
		// A field the encoder always writes is one a valid object has,
		// which is how upstream's generator reads "required" too.
		if !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") {
			*required = append(*required, name)
		}
	}
}

// propertySchema is the schema of a value of type t described by desc:
// inline for primitives, arrays and maps, a reference for structs.
func (b *definitionBuilder) propertySchema(t reflect.Type, desc string) map[string]any {
	s := b.valueSchema(t)
	if desc == "" {
		return s
	}
	if ref, ok := s["$ref"]; ok && b.flavor == openAPIV3 {
		s = map[string]any{"allOf": []any{map[string]any{"$ref": ref}}}
	}
	s["description"] = desc
	return s
}

// valueSchema is the schema of a value of type t, without description.
func (b *definitionBuilder) valueSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := specialOpenAPISchema(t, b.flavor); ok {
		return b.ref(b.define(t))
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return map[string]any{"type": "integer", "format": "int32"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Float32:
		return map[string]any{"type": "number", "format": "float"}
	case reflect.Float64:
		return map[string]any{"type": "number", "format": "double"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			// encoding/json writes bytes as base64.
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": b.valueSchema(t.Elem())}
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			// Free-form JSON (managedFields' fieldsV1).
			return map[string]any{"type": "object"}
		}
		return map[string]any{"type": "object", "additionalProperties": b.valueSchema(t.Elem())}
	case reflect.Struct:
		return b.ref(b.define(t))
	}
	// An interface holds any JSON value: a schema without a type.
	return map[string]any{}
}

// fieldDescription is the description of struct t's field f: its doc
// comment, else the doc comment of its type. apiVersion, kind and
// metadata get upstream's standard words.
func fieldDescription(t reflect.Type, f reflect.StructField, jsonName string) string {
	switch {
	case t == typeMetaType && jsonName == "apiVersion":
		return apiVersionDescription
	case t == typeMetaType && jsonName == "kind":
		return kindDescription
	case jsonName == "metadata" && f.Type == objectMetaType:
		return objectMetaDescription
	case jsonName == "metadata" && f.Type == listMetaType:
		return listMetaDescription
	}
	if desc := openAPIDescriptions[descriptionKey(t)+"."+f.Name]; desc != "" {
		return desc
	}
	// Without a comment of its own, a field is described by its type's
	// comment (a list by its element's): kubectl explain lists fields
	// with their descriptions only, and most of minicp's fields say what
	// they are through their type. A map is not described by its values,
	// unless the map type itself is named (ResourceList).
	for ft := f.Type; ; ft = ft.Elem() {
		if ft.Name() != "" {
			return openAPIDescriptions[descriptionKey(ft)]
		}
		if k := ft.Kind(); k != reflect.Pointer && k != reflect.Slice && k != reflect.Array {
			return ""
		}
	}
}

var (
	typeMetaType   = reflect.TypeFor[runtime.TypeMeta]()
	objectMetaType = reflect.TypeFor[metav1.ObjectMeta]()
	listMetaType   = reflect.TypeFor[metav1.ListMeta]()
	jsonMarshaler  = reflect.TypeFor[json.Marshaler]()
)

const (
	objectMetaDescription = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetaDescription   = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

// minicpAPI is the import path of the API types, whose doc comments
// openapiDescriptions holds.
const minicpAPI = "github.com/minicp/minicp/api/"

// descriptionKey is t's key in openAPIDescriptions: its package below
// api/ and its name, "core/v1.PodSpec".
func descriptionKey(t reflect.Type) string {
	return strings.TrimPrefix(t.PkgPath(), minicpAPI) + "." + t.Name()
}

// openAPIPackageNames are upstream's names of the API packages, which
// upstream's definition names start with.
var openAPIPackageNames = map[string]string{
	"meta/v1":          "io.k8s.apimachinery.pkg.apis.meta.v1",
	"runtime":          "io.k8s.apimachinery.pkg.runtime",
	"resource":         "io.k8s.apimachinery.pkg.api.resource",
	"intstr":           "io.k8s.apimachinery.pkg.util.intstr",
	"apiextensions/v1": "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1",
	"metrics/v1beta1":  "io.k8s.metrics.pkg.apis.metrics.v1beta1",
}

// openAPIDefinitionName is the name of t's definition as upstream
// names it: "io.k8s.api.core.v1.Pod". The types of other modules (kinds
// a program registers itself) are named after their import path with the
// host reversed, as openapi-gen names them: "com.example.pkg.v1.Widget".
func openAPIDefinitionName(t reflect.Type) string {
	pkg := t.PkgPath()
	if rel, ok := strings.CutPrefix(pkg, minicpAPI); ok {
		if name, ok := openAPIPackageNames[rel]; ok {
			return name + "." + t.Name()
		}
		return "io.k8s.api." + strings.ReplaceAll(rel, "/", ".") + "." + t.Name()
	}
	host, path, _ := strings.Cut(pkg, "/")
	parts := strings.Split(host, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	if path != "" {
		parts = append(parts, strings.Split(path, "/")...)
	}
	return strings.Join(append(parts, t.Name()), ".")
}
