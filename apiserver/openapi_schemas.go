package apiserver

import (
	"maps"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/runtime"
)

// openAPISchema returns the published schema of an installed custom
// resource's kind, or nil for a built-in kind (whose schema comes from
// its Go type). The result is shared: callers must not modify it.
func (s *Server) openAPISchema(gvr runtime.GroupVersionResource) map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.resources[gvr]; ok {
		return r.openAPISchema
	}
	return nil
}

// openAPISchemaName is the name of a custom resource kind's schema: the
// group reversed, the version and the kind, "com.example.v1.Developer",
// as upstream names the schemas of custom resources.
func openAPISchemaName(gvk runtime.GroupVersionKind) string {
	parts := strings.Split(gvk.Group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(append(parts, gvk.Version, gvk.Kind), ".")
}

const objectMetaRef = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// customResourceOpenAPISchema completes a CRD version's schema as
// upstream publishes it: apiVersion, kind and metadata described at the
// root (metadata by reference to ObjectMeta), and the kind named by
// x-kubernetes-group-version-kind, which is how kubectl explain finds it.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder.
func customResourceOpenAPISchema(schema map[string]any, gvk runtime.GroupVersionKind) map[string]any {
	out := maps.Clone(schema)
	if _, ok := out["type"]; !ok {
		out["type"] = "object"
	}
	props := map[string]any{}
	if p, ok := out["properties"].(map[string]any); ok {
		props = maps.Clone(p)
	}
	props["apiVersion"] = map[string]any{"type": "string", "description": apiVersionDescription}
	props["kind"] = map[string]any{"type": "string", "description": kindDescription}
	props["metadata"] = map[string]any{
		"description": objectMetaDescription,
		"allOf":       []any{map[string]any{"$ref": objectMetaRef}},
	}
	out["properties"] = props
	out["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind}}
	return out
}

// customResourceListSchema is the schema of a custom resource's list
// kind, whose items are the kind named kind.
func customResourceListSchema(b *definitionBuilder, info runtime.ResourceInfo, kind string) map[string]any {
	gvk := info.ListGVK()
	return map[string]any{
		"type":        "object",
		"description": info.ListKind() + " is a list of " + info.Kind + ".",
		"required":    []any{"items"},
		"properties": map[string]any{
			"apiVersion": map[string]any{"type": "string", "description": apiVersionDescription},
			"kind":       map[string]any{"type": "string", "description": kindDescription},
			"metadata":   b.propertySchema(listMetaType, listMetaDescription),
			"items": map[string]any{
				"type":        "array",
				"description": "List of " + info.GVR.Resource + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
				"items":       b.ref(kind),
			},
		},
		"x-kubernetes-group-version-kind": []any{map[string]any{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind}},
	}
}

const (
	apiVersionDescription = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDescription       = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

// openAPIV2Keywords are the schema keywords swagger 2.0 has; a CRD's
// OpenAPI v3 schema may use others (oneOf, nullable), which swagger
// clients would reject.
var openAPIV2Keywords = []string{
	"$ref", "format", "title", "description", "default", "multipleOf", "maximum", "exclusiveMaximum",
	"minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
	"uniqueItems", "maxProperties", "minProperties", "required", "enum", "additionalProperties",
	"type", "items", "allOf", "properties", "discriminator", "readOnly", "example",
}

// openAPIV2Schema converts a custom resource's OpenAPI v3 schema to
// swagger 2.0 as upstream does: it drops what swagger cannot say
// (oneOf, anyOf, not, nullable), leaves nullable and
// x-kubernetes-preserve-unknown-fields values untyped (any value),
// unwraps a description's allOf reference, and points references at
// definitions. It returns a new schema; s is not modified.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/openapi/v2
// (ToStructuralOpenAPIV2).
func openAPIV2Schema(s map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		if strings.HasPrefix(k, "x-") || slices.Contains(openAPIV2Keywords, k) {
			out[k] = v
		}
	}
	if all, ok := out["allOf"].([]any); ok {
		delete(out, "allOf")
		if ref, ok := singleRef(all); ok {
			out["$ref"] = ref
		}
	}
	if ref, ok := out["$ref"].(string); ok {
		out["$ref"] = strings.Replace(ref, "#/components/schemas/", "#/definitions/", 1)
	}
	nullable, _ := s["nullable"].(bool)
	preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	if nullable || preserve {
		delete(out, "items")
		delete(out, "properties")
	}
	if nullable || preserve && out["type"] == "object" {
		delete(out, "type")
	}
	if props, ok := out["properties"].(map[string]any); ok {
		converted := map[string]any{}
		for name, p := range props {
			ps, ok := p.(map[string]any)
			if !ok {
				continue
			}
			converted[name] = openAPIV2Schema(ps)
			if n, _ := ps["nullable"].(bool); n {
				out["required"] = slices.DeleteFunc(slices.Clone(anySlice(out["required"])), func(r any) bool { return r == name })
			}
		}
		out["properties"] = converted
	}
	if items, ok := out["items"].(map[string]any); ok {
		out["items"] = openAPIV2Schema(items)
	} else if out["type"] == "array" {
		// Swagger clients cannot read an array of nothing in particular.
		delete(out, "type")
	}
	if ap, ok := out["additionalProperties"].(map[string]any); ok {
		out["additionalProperties"] = openAPIV2Schema(ap)
		if n, _ := ap["nullable"].(bool); n {
			delete(out, "required")
		}
	}
	if r, ok := out["required"].([]any); ok && len(r) == 0 {
		delete(out, "required")
	}
	return out
}

// singleRef returns the reference of an allOf that only wraps one.
func singleRef(all []any) (string, bool) {
	if len(all) != 1 {
		return "", false
	}
	m, ok := all[0].(map[string]any)
	if !ok || len(m) != 1 {
		return "", false
	}
	ref, ok := m["$ref"].(string)
	return ref, ok
}

func anySlice(v any) []any {
	s, _ := v.([]any)
	return s
}
