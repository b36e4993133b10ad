package openapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
)

// knownDifferences are the fields whose schema differs from what the
// k8s.io/api Go types say, each with the reason. Any other difference
// fails TestSchemasMatchUpstreamGoTypes.
var knownDifferences = map[string]string{
	// client-go's embedded spec predates Kubernetes 1.29, where a
	// claim's resources became VolumeResourceRequirements (no claims);
	// minicp follows k8s.io/api v0.37.
	"io.k8s.api.core.v1.PersistentVolumeClaimSpec.resources": "VolumeResourceRequirements since 1.29",
	// minicp serves no PersistentVolumeClaims; the type appears only in
	// StatefulSets' volumeClaimTemplates, so it names no served kind.
	"io.k8s.api.core.v1.PersistentVolumeClaim.x-kubernetes-group-version-kind": "PersistentVolumeClaims are not served",
	// DeleteOptions appears in api/v1 as a field of the Eviction that
	// pods/eviction takes; upstream, which registers DeleteOptions in
	// every group as a kind, lists all of them here.
	"io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.x-kubernetes-group-version-kind": "DeleteOptions is no kind of minicp's",
	// minicp's LabelSelectorRequirement.Key has no patch tags; upstream's
	// (on a scalar) have no effect.
	"io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement.key": "no patch tags on a scalar",
}

// TestSchemasMatchUpstreamGoTypes checks every property of every
// definition minicp publishes for api/v1, apps/v1 and batch/v1 against
// the k8s.io/api Go type of the same name (the newest upstream, where
// client-go's published documents are older): the field must exist, with
// the same JSON type, element type and patch tags.
func TestSchemasMatchUpstreamGoTypes(t *testing.T) {
	s := newServer(t)
	types := upstreamTypes()
	for _, gv := range upstreamGroupVersions {
		t.Run(gv, func(t *testing.T) {
			body, _ := s.get("/openapi/v3/"+gv, "application/json")
			for name, def := range componentSchemas(t, body) {
				typ, ok := types[name]
				if !ok {
					t.Errorf("%s: k8s.io/api has no such type", name)
					continue
				}
				props, _ := def["properties"].(map[string]any)
				if typ.Kind() != reflect.Struct || len(props) == 0 {
					continue
				}
				fields := jsonFields(typ)
				for prop, p := range props {
					key := name + "." + prop
					f, ok := fields[prop]
					if !ok {
						t.Errorf("%s: the Go type has no such field", key)
						continue
					}
					if _, known := knownDifferences[key]; known {
						continue
					}
					got, want := shape(p.(map[string]any)), goShape(f.Type)
					if got != want {
						t.Errorf("%s: minicp %s, upstream Go type %s", key, got, want)
					}
					gp := p.(map[string]any)
					if g, w := str(gp["x-kubernetes-patch-strategy"]), f.Tag.Get("patchStrategy"); g != w {
						t.Errorf("%s: x-kubernetes-patch-strategy %q, upstream tag %q", key, g, w)
					}
					if g, w := str(gp["x-kubernetes-patch-merge-key"]), f.Tag.Get("patchMergeKey"); g != w {
						t.Errorf("%s: x-kubernetes-patch-merge-key %q, upstream tag %q", key, g, w)
					}
				}
			}
		})
	}
	require.NotEmpty(t, types)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// upstreamTypes are the Go types client-go's scheme registers and every
// struct type they refer to, by OpenAPI definition name.
func upstreamTypes() map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.Name() == "" {
			return
		}
		name := definitionName(t)
		if _, seen := out[name]; seen {
			return
		}
		out[name] = t
		for i := range t.NumField() {
			walk(t.Field(i).Type)
		}
	}
	for _, t := range scheme.Scheme.AllKnownTypes() {
		walk(t)
	}
	return out
}

// definitionName names a Go type as upstream's OpenAPI does:
// k8s.io/api/core/v1.Pod is io.k8s.api.core.v1.Pod.
func definitionName(t reflect.Type) string {
	return "io.k8s." + strings.ReplaceAll(strings.TrimPrefix(t.PkgPath(), "k8s.io/"), "/", ".") + "." + t.Name()
}

// jsonFields are the fields of struct t by JSON name, embedded structs'
// inlined.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

var specialTypes = map[reflect.Type]bool{
	reflect.TypeFor[metav1.Time]():        true,
	reflect.TypeFor[metav1.MicroTime]():   true,
	reflect.TypeFor[resource.Quantity]():  true,
	reflect.TypeFor[intstr.IntOrString](): true,
}

// goShape is shape's description of the values of Go type t, as
// upstream's openapi-gen describes it.
func goShape(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if specialTypes[t] || t.Kind() == reflect.Struct {
		return "ref:" + definitionName(t)
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int32:
		return "integer/int32"
	case reflect.Int, reflect.Int64:
		return "integer/int64"
	case reflect.Float64:
		return "number/double"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string/byte"
		}
		return "[]" + goShape(t.Elem())
	case reflect.Map:
		return "map[" + goShape(t.Elem()) + "]"
	}
	return t.Kind().String()
}
