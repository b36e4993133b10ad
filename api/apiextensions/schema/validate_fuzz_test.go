package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// fuzzSchema extends widgetSchema with defaults and nested lists, so one
// schema reaches pruning, defaulting, metadata coercion and every
// validation keyword.
const fuzzSchema = widgetSchema + `
      size: {type: integer, default: 1}
      policy:
        type: object
        default: {mode: auto}
        properties:
          mode: {type: string, enum: [auto, manual], default: auto}
          window: {type: string, format: duration}
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [port, protocol]
        items:
          type: object
          required: [port]
          properties:
            port: {type: integer, minimum: 1, maximum: 65535}
            protocol: {type: string, default: TCP}
      free: {type: object, x-kubernetes-preserve-unknown-fields: true}
      either:
        anyOf: [{type: integer}, {type: string}]
        x-kubernetes-int-or-string: true
      notEmpty: {type: string, not: {enum: [""]}}
      ip: {type: string, format: ipv4}
      uid: {type: string, format: uuid}
  status:
    type: object
    properties:
      conditions:
        type: array
        items:
          type: object
          properties:
            type: {type: string}
            status: {type: string, enum: ["True", "False", Unknown]}
`

// FuzzValidate runs a custom resource body through what the API server
// does to it (decode, prune, coerce metadata, default, validate) against a
// fixed schema. None of it may panic; Validate must not change the value
// and must give the same errors twice; pruning and defaulting a second
// time must change nothing.
func FuzzValidate(f *testing.F) {
	s := fuzzStructural(f, fuzzSchema)
	for _, doc := range []string{
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},` +
			`"spec":{"replicas":3,"image":"nginx","tier":"a","ratio":1.5,"port":"http","when":"2024-05-06T07:08:09Z",` +
			`"args":["x"],"labels":{"a":"b"},"env":[{"name":"A"}],"tags":["x","y"],` +
			`"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}},"choice":{"a":"x"},` +
			`"ports":[{"port":80},{"port":80,"protocol":"UDP"}],"free":{"any":[1,{"x":null}]},"ip":"10.0.0.1"},` +
			`"status":{"conditions":[{"type":"Ready","status":"True"}]}}`,
		`{"spec":{"image":"x","replicas":"string","tier":"x","ratio":2.25,"args":["a","b","c"]}}`,
		`{"spec":{"env":[{"name":"A"},{"name":"A"}],"tags":["x","x"],"ports":[{"port":0},{"port":0}]}}`,
		`{"spec":{"template":{"kind":7,"metadata":{"name":["x"]}},"choice":{"a":"x","b":"y"}}}`,
		`{"metadata":{"name":"w","creationTimestamp":"bad"},"spec":null,"status":{"conditions":null}}`,
		`{"spec":{"policy":null,"size":null,"optional":null,"ports":[null],"labels":{"a":null}}}`,
		`{"spec":{"replicas":1e400,"ratio":-0,"when":"","either":1.5,"notEmpty":"","uid":"x"}}`,
		`{"extra":{"deep":[1,2]},"spec":{"unknown":true}}`,
		`[1,"a",null]`,
		`"string"`,
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Bodies of a few KB reach every keyword of the schema; larger ones
		// only slow each run down.
		if len(data) > 8<<10 {
			t.Skip()
		}
		obj, err := DecodeJSON(data)
		if err != nil {
			return
		}
		Prune(obj, s, true)
		if again := Prune(obj, s, true); len(again) > 0 {
			t.Fatalf("a pruned %q prunes %q again", data, again)
		}
		if err := Coerce(obj, s, false, false); err != nil {
			_ = err.Error()
		}
		Default(obj, s)
		defaulted := deepCopyJSON(obj)
		Default(defaulted, s)
		if !reflect.DeepEqual(obj, defaulted) {
			t.Fatalf("defaulting %q twice differs from once", data)
		}
		before := deepCopyJSON(obj)
		first := messages(Validate(s, obj, ""))
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("Validate changed %q", data)
		}
		if second := messages(Validate(s, obj, "")); !slices.Equal(first, second) {
			t.Fatalf("Validate of %q is not stable:\n%q\n%q", data, first, second)
		}
	})
}

// FuzzNewStructural builds structural schemas from arbitrary
// JSONSchemaProps, as the API server does for each CRD version it is
// given. NewStructural, ValidateStructural and PruneDefaults must never
// panic (a CRD is user input, and a panic in its validation would be a 500
// or worse, a dead watch), and a schema they accept must validate, prune
// and default a value without panicking.
func FuzzNewStructural(f *testing.F) {
	for _, doc := range []string{
		fuzzSchema,
		widgetSchema,
		"type: object\nproperties:\n  metadata: {type: object, properties: {name: {type: string, maxLength: 5}}}\n",
		"type: object\nx-kubernetes-preserve-unknown-fields: true\n",
		"type: object\nproperties:\n  a: {type: array, items: {type: array, items: {type: integer}}}\n",
		"type: object\nproperties:\n  a: {type: string, default: 7}\n  b: {type: object, default: {x: 1}, properties: {x: {type: string}}}\n",
		"type: object\nproperties:\n  a: {type: string, pattern: \"([\"}\n",
		"type: object\nadditionalProperties: false\n",
		"type: object\nproperties:\n  a: {allOf: [{properties: {b: {type: string}}}], type: object}\n",
		"type: object\nproperties:\n  e: {type: object, x-kubernetes-embedded-resource: true, properties: {metadata: {type: object}}}\n",
		"type: object\nproperties:\n  l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k], items: {type: string}}\n",
		"$ref: '#/definitions/x'\n",
		"items: [{type: string}]\n",
		"type: object\nx-kubernetes-validations: [{rule: self.a > 0, message: positive}]\nproperties: {a: {type: integer}}\n",
	} {
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			f.Fatalf("seed schema %s: %v", doc, err)
		}
		f.Add(j, []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"a":"x","spec":{"image":"x"},"e":{"kind":1}}`))
	}
	f.Fuzz(func(t *testing.T, schemaJSON, valueJSON []byte) {
		// Schemas of a few KB reach every keyword; larger ones only slow
		// each run down.
		if len(schemaJSON)+len(valueJSON) > 8<<10 {
			t.Skip()
		}
		var props apiextensionsv1.JSONSchemaProps
		if err := json.Unmarshal(schemaJSON, &props); err != nil {
			return
		}
		s, err := NewStructural(&props)
		if err != nil {
			return
		}
		if errs := ValidateStructural("", s); len(errs) > 0 {
			_ = messages(errs)
			return
		}
		if _, err := ValidateDefaults("", s, true, true); err != nil {
			return
		}
		if err := PruneDefaults(s); err != nil {
			return
		}
		obj, err := DecodeJSON(valueJSON)
		if err != nil {
			return
		}
		Prune(obj, s, true)
		Default(obj, s)
		_ = messages(Validate(s, obj, ""))
	})
}

// fuzzStructural builds the Structural of a schema written as YAML.
func fuzzStructural(f *testing.F, y string) *Structural {
	f.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		f.Fatalf("schema YAML: %v", err)
	}
	var p apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(j, &p); err != nil {
		f.Fatalf("schema: %v", err)
	}
	s, err := NewStructural(&p)
	if err != nil {
		f.Fatalf("NewStructural: %v", err)
	}
	if errs := ValidateStructural("", s); len(errs) > 0 {
		f.Fatalf("ValidateStructural: %v", errs)
	}
	return s
}
