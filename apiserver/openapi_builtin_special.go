package apiserver

import (
	"reflect"

	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	apiresource "github.com/minicp/minicp/api/resource"
)

// specialOpenAPISchema returns the schema of a type that encodes itself
// (its own MarshalJSON), and false for ordinary types, whose schema
// follows from their fields. Times are date-time strings, a Duration a
// string, a Quantity a string or a number, an IntOrString an integer or a
// string, each spelled as upstream publishes it in each OpenAPI version;
// any other self-encoding type (a CRD's JSON, JSONSchemaPropsOrBool) may
// be any JSON value, so its schema has no type, as upstream's has none.
//
// Upstream: the OpenAPIDefinition, OpenAPISchemaType and
// OpenAPISchemaFormat methods of k8s.io/apimachinery's special types.
func specialOpenAPISchema(t reflect.Type, flavor openAPIFlavor) (map[string]any, bool) {
	var s map[string]any
	switch t {
	case reflect.TypeFor[metav1.Time](), reflect.TypeFor[metav1.MicroTime]():
		s = map[string]any{"type": "string", "format": "date-time"}
	case reflect.TypeFor[metav1.Duration]():
		s = map[string]any{"type": "string"}
	case reflect.TypeFor[metav1.FieldsV1]():
		s = map[string]any{"type": "object"}
	case reflect.TypeFor[apiresource.Quantity]():
		s = map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
		if flavor == openAPIV2 {
			s = map[string]any{"type": "string"}
		}
	case reflect.TypeFor[intstr.IntOrString]():
		s = map[string]any{"format": "int-or-string", "oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}}
		if flavor == openAPIV2 {
			s = map[string]any{"type": "string", "format": "int-or-string"}
		}
	default:
		if t.Kind() != reflect.Struct || !t.Implements(jsonMarshaler) && !reflect.PointerTo(t).Implements(jsonMarshaler) {
			return nil, false
		}
		s = map[string]any{}
	}
	if desc := openAPIDescriptions[descriptionKey(t)]; desc != "" {
		s["description"] = desc
	}
	return s, true
}
