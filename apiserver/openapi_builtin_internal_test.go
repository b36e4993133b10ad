package apiserver

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// property returns the schema of def's property name.
func property(t *testing.T, defs map[string]map[string]any, def, name string) map[string]any {
	t.Helper()
	d, ok := defs[def]
	require.True(t, ok, "definition %s", def)
	p, ok := d["properties"].(map[string]any)[name].(map[string]any)
	require.True(t, ok, "%s has property %s", def, name)
	return p
}

// stripDescriptions returns s without its description, for comparing
// the shape of a schema alone.
func stripDescription(s map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		if k != "description" {
			out[k] = v
		}
	}
	return out
}

func TestOpenAPIBuiltinSchemaTypes(t *testing.T) {
	const core, meta = "io.k8s.api.core.v1.", "io.k8s.apimachinery.pkg.apis.meta.v1."
	v3 := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	tests := []struct {
		def, property string
		want          map[string]any
	}{
		{core + "PodSpec", "restartPolicy", map[string]any{"type": "string"}},
		{core + "PodSpec", "priority", map[string]any{"type": "integer", "format": "int32"}},
		{core + "PodSpec", "terminationGracePeriodSeconds", map[string]any{"type": "integer", "format": "int64"}},
		{core + "PodSpec", "hostNetwork", map[string]any{"type": "boolean"}},
		{core + "PodSpec", "nodeSelector", map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "x-kubernetes-map-type": "atomic"}},
		{core + "PodSpec", "overhead", map[string]any{"type": "object", "additionalProperties": v3("io.k8s.apimachinery.pkg.api.resource.Quantity")}},
		{core + "PodSpec", "containers", map[string]any{
			"type": "array", "items": v3(core + "Container"),
			"x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name",
		}},
		{core + "PodSpec", "volumes", map[string]any{
			"type": "array", "items": v3(core + "Volume"),
			"x-kubernetes-patch-strategy": "merge,retainKeys", "x-kubernetes-patch-merge-key": "name",
		}},
		{core + "Container", "command", map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		{core + "Secret", "data", map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "format": "byte"}}},
		{core + "HTTPGetAction", "port", v3("io.k8s.apimachinery.pkg.util.intstr.IntOrString")},
		{meta + "ObjectMeta", "creationTimestamp", map[string]any{"allOf": []any{v3(meta + "Time")}}},
		{meta + "ObjectMeta", "finalizers", map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "x-kubernetes-patch-strategy": "merge"}},
		{meta + "ManagedFieldsEntry", "fieldsV1", v3(meta + "FieldsV1")},
		{"io.k8s.api.apps.v1.DeploymentSpec", "strategy", map[string]any{"allOf": []any{v3("io.k8s.api.apps.v1.DeploymentStrategy")}, "x-kubernetes-patch-strategy": "retainKeys"}},
	}
	b := newDefinitionBuilder(openAPIV3)
	b.addKind(reflect.TypeFor[corev1.Pod](), corev1.SchemeGroupVersion.WithKind("Pod"))
	b.addKind(reflect.TypeFor[corev1.Secret](), corev1.SchemeGroupVersion.WithKind("Secret"))
	b.addKind(reflect.TypeFor[appsv1.Deployment](), appsv1.SchemeGroupVersion.WithKind("Deployment"))
	for _, tc := range tests {
		t.Run(tc.def+"."+tc.property, func(t *testing.T) {
			got := stripDescription(property(t, b.defs, tc.def, tc.property))
			// A reference with a description is wrapped in allOf; compare
			// the bare reference when the test gives one.
			if _, ok := tc.want["$ref"]; ok {
				if all, ok := got["allOf"].([]any); ok && len(got) == 1 {
					got = all[0].(map[string]any)
				}
			}
			assert.Equal(t, tc.want, got, "%s.%s", tc.def, tc.property)
		})
	}
}

func TestOpenAPIBuiltinSpecialTypes(t *testing.T) {
	tests := []struct {
		name   string
		flavor openAPIFlavor
		def    string
		want   map[string]any
	}{
		{"Time", openAPIV3, "io.k8s.apimachinery.pkg.apis.meta.v1.Time", map[string]any{"type": "string", "format": "date-time"}},
		{"Quantity v3", openAPIV3, "io.k8s.apimachinery.pkg.api.resource.Quantity", map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}},
		{"Quantity v2", openAPIV2, "io.k8s.apimachinery.pkg.api.resource.Quantity", map[string]any{"type": "string"}},
		{"IntOrString v3", openAPIV3, "io.k8s.apimachinery.pkg.util.intstr.IntOrString", map[string]any{"format": "int-or-string", "oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}}},
		{"IntOrString v2", openAPIV2, "io.k8s.apimachinery.pkg.util.intstr.IntOrString", map[string]any{"type": "string", "format": "int-or-string"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newDefinitionBuilder(tc.flavor)
			b.addKind(reflect.TypeFor[corev1.Pod](), corev1.SchemeGroupVersion.WithKind("Pod"))
			require.Contains(t, b.defs, tc.def)
			assert.Equal(t, tc.want, stripDescription(b.defs[tc.def]))
		})
	}
}

func TestOpenAPIBuiltinKindAndRequired(t *testing.T) {
	b := newDefinitionBuilder(openAPIV2)
	name := b.addKind(reflect.TypeFor[corev1.Pod](), corev1.SchemeGroupVersion.WithKind("Pod"))
	assert.Equal(t, "io.k8s.api.core.v1.Pod", name)
	b.addKind(reflect.TypeFor[corev1.Pod](), corev1.SchemeGroupVersion.WithKind("Pod"))
	pod := b.defs[name]
	assert.Equal(t, []any{map[string]any{"group": "", "version": "v1", "kind": "Pod"}}, pod["x-kubernetes-group-version-kind"], "added once")
	assert.Equal(t, map[string]any{"type": "string", "description": apiVersionDescription}, property(t, b.defs, name, "apiVersion"), "TypeMeta is inlined")
	assert.Equal(t, "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", property(t, b.defs, name, "metadata")["$ref"])
	assert.Equal(t, objectMetaDescription, property(t, b.defs, name, "metadata")["description"])
	assert.NotContains(t, pod, "required", "a Pod's spec and status may be omitted")
	assert.Equal(t, []any{"containers"}, b.defs["io.k8s.api.core.v1.PodSpec"]["required"])
	assert.Equal(t, "PodSpec is the desired state of a Pod.", b.defs["io.k8s.api.core.v1.PodSpec"]["description"], "from the type's doc comment")
}

type widget struct {
	Name   string  `json:"name"`
	Inner  *widget `json:"inner,omitempty"`
	Skip   string  `json:"-"`
	hidden int
}

func TestOpenAPIDefinitionNameOfOtherModules(t *testing.T) {
	b := newDefinitionBuilder(openAPIV3)
	name := b.define(reflect.TypeFor[widget]())
	assert.Equal(t, "com.github.minicp.minicp.apiserver.widget", name, "host reversed, then the path")
	assert.Equal(t, map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":  map[string]any{"type": "string"},
			"inner": map[string]any{"$ref": "#/components/schemas/" + name},
		},
		"required": []any{"name"},
	}, b.defs[name], "a recursive type refers to itself; unexported and '-' fields are left out")
}
