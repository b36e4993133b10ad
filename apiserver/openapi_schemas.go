package apiserver

import (
	"strings"

	"github.com/minicp/minicp/api/runtime"
)

// openAPISchema returns the published schema of an installed resource's
// kind, or nil.
func (s *Server) openAPISchema(gvr runtime.GroupVersionResource) map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.resources[gvr]; ok {
		return r.openAPISchema
	}
	return nil
}

// openAPISchemaName is the name of a kind's schema: the group reversed,
// the version and the kind, "com.example.v1.Developer", as upstream
// names the schemas of custom resources.
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
	out := map[string]any{}
	for k, v := range schema {
		out[k] = v
	}
	if _, ok := out["type"]; !ok {
		out["type"] = "object"
	}
	props := map[string]any{}
	if p, ok := out["properties"].(map[string]any); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	props["apiVersion"] = map[string]any{"type": "string", "description": apiVersionDescription}
	props["kind"] = map[string]any{"type": "string", "description": kindDescription}
	props["metadata"] = map[string]any{
		"description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
		"allOf":       []any{map[string]any{"$ref": objectMetaRef}},
	}
	out["properties"] = props
	out["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind}}
	return out
}

const (
	apiVersionDescription = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDescription       = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

// objectMetaSchemas are the schemas of ObjectMeta and what it refers to,
// with the fields and descriptions kubectl explain shows for metadata.
func objectMetaSchemas() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	strMap := func(desc string) map[string]any {
		return map[string]any{"type": "object", "description": desc, "additionalProperties": map[string]any{"type": "string", "default": ""}}
	}
	strList := func(desc string) map[string]any {
		return map[string]any{"type": "array", "description": desc, "items": map[string]any{"type": "string", "default": ""}}
	}
	timeRef := map[string]any{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}
	return map[string]any{
		"io.k8s.apimachinery.pkg.apis.meta.v1.Time": map[string]any{
			"type": "string", "format": "date-time",
			"description": "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.",
		},
		"io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference": map[string]any{
			"type":        "object",
			"description": "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
			"required":    []any{"apiVersion", "kind", "name", "uid"},
			"properties": map[string]any{
				"apiVersion":         str("API version of the referent."),
				"kind":               str("Kind of the referent."),
				"name":               str("Name of the referent."),
				"uid":                str("UID of the referent."),
				"controller":         map[string]any{"type": "boolean", "description": "If true, this reference points to the managing controller."},
				"blockOwnerDeletion": map[string]any{"type": "boolean", "description": "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed."},
			},
		},
		"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": map[string]any{
			"type":        "object",
			"description": "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
			"properties": map[string]any{
				"name":              str("Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated."),
				"generateName":      str("GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided."),
				"namespace":         str("Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the \"default\" namespace, but \"default\" is the canonical representation."),
				"uid":               str("UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations."),
				"resourceVersion":   str("An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed."),
				"generation":        map[string]any{"type": "integer", "format": "int64", "description": "A sequence number representing a specific generation of the desired state. Populated by the system. Read-only."},
				"creationTimestamp": map[string]any{"description": "CreationTimestamp is a timestamp representing the server time when this object was created.", "allOf": []any{timeRef}},
				"deletionTimestamp": map[string]any{"description": "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.", "allOf": []any{timeRef}},
				"labels":            strMap("Map of string keys and values that can be used to organize and categorize (scope and select) objects."),
				"annotations":       strMap("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata."),
				"finalizers":        strList("Must be empty before the object is deleted from the registry."),
				"ownerReferences": map[string]any{
					"type":        "array",
					"description": "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.",
					"items":       map[string]any{"default": map[string]any{}, "allOf": []any{map[string]any{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"}}},
				},
			},
		},
	}
}
