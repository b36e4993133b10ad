package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const widgetSchema = `
type: object
properties:
  spec:
    type: object
    required: [image]
    properties:
      replicas: {type: integer, format: int32, minimum: 0, maximum: 10}
      image: {type: string, minLength: 1, maxLength: 5, pattern: "^[a-z]+$"}
      tier: {type: string, enum: [a, b]}
      ratio: {type: number, multipleOf: 0.5, exclusiveMaximum: true, maximum: 2}
      port: {x-kubernetes-int-or-string: true}
      when: {type: string, format: date-time}
      args: {type: array, maxItems: 2, items: {type: string}}
      labels: {type: object, maxProperties: 1, additionalProperties: {type: string}}
      optional: {type: string, nullable: true}
      env:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items: {type: object, required: [name], properties: {name: {type: string}}}
      tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
      template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
      choice:
        type: object
        properties: {a: {type: string}, b: {type: string}}
        oneOf: [{required: [a]}, {required: [b]}]
`

func TestValidate(t *testing.T) {
	s := structural(t, widgetSchema)
	tests := []struct {
		name  string
		value string
		want  []string
	}{
		{name: "valid", value: `{"spec": {"replicas": 3, "image": "nginx", "tier": "a", "ratio": 1.5, "port": "http", "optional": null}}`, want: []string{}},
		{name: "wrong type", value: `{"spec": {"image": "x", "replicas": "string"}}`,
			want: []string{`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`}},
		{name: "required", value: `{"spec": {}}`, want: []string{`spec.image: Required value`}},
		{name: "enum", value: `{"spec": {"image": "x", "tier": "x"}}`,
			want: []string{`spec.tier: Unsupported value: "x": supported values: "a", "b"`}},
		{name: "maximum", value: `{"spec": {"image": "x", "replicas": 11}}`,
			want: []string{`spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10`}},
		{name: "minimum", value: `{"spec": {"image": "x", "replicas": -1}}`,
			want: []string{`spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0`}},
		{name: "int32 range", value: `{"spec": {"image": "x", "replicas": 3000000000}}`,
			want: []string{
				`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.replicas`,
				`spec.replicas: Invalid value: 3000000000: spec.replicas in body should be less than or equal to 10`,
			}},
		{name: "exclusive maximum and multipleOf", value: `{"spec": {"image": "x", "ratio": 2.25}}`,
			want: []string{
				`spec.ratio: Invalid value: 2.25: spec.ratio in body should be a multiple of 0.5`,
				`spec.ratio: Invalid value: 2.25: spec.ratio in body should be less than 2`,
			}},
		{name: "length counts runes", value: `{"spec": {"image": "äöüßé"}}`,
			want: []string{`spec.image: Invalid value: "äöüßé": spec.image in body should match '^[a-z]+$'`}},
		{name: "too long", value: `{"spec": {"image": "abcdef"}}`, want: []string{`spec.image: Too long: may not be more than 5 bytes`}},
		{name: "too short", value: `{"spec": {"image": ""}}`,
			want: []string{`spec.image: Invalid value: "": spec.image in body should be at least 1 chars long`}},
		{name: "int-or-string", value: `{"spec": {"image": "x", "port": 1.5}}`,
			want: []string{`spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"`}},
		{name: "format", value: `{"spec": {"image": "x", "when": "yesterday"}}`,
			want: []string{`spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"`}},
		{name: "maxItems", value: `{"spec": {"image": "x", "args": ["a", "b", "c"]}}`,
			// apierrors prints FieldValueTooMany as "Invalid value"; upstream says "Too many".
			want: []string{`spec.args: Too many: 3: must have at most 2 items`}},
		{name: "maxProperties and map value", value: `{"spec": {"image": "x", "labels": {"a": "x", "b": 1}}}`,
			want: []string{
				`spec.labels: Too many: 2: must have at most 1 item`,
				`spec.labels.b: Invalid value: "integer": spec.labels.b in body must be of type string: "integer"`,
			}},
		{name: "null", value: `{"spec": {"image": null}}`,
			want: []string{`spec.image: Invalid value: "null": spec.image in body must be of type string: "null"`}},
		{name: "list map duplicates", value: `{"spec": {"image": "x", "env": [{"name": "a"}, {"name": "a"}], "tags": ["x", "x"]}}`,
			want: []string{`spec.env[1]: Duplicate value: {"name":"a"}`, `spec.tags[1]: Duplicate value: "x"`}},
		{name: "embedded resource", value: `{"spec": {"image": "x", "template": {"kind": "Pod", "metadata": {"name": "a/b"}}}}`,
			want: []string{
				`spec.template.apiVersion: Required value`,
				`spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
			}},
		{name: "oneOf", value: `{"spec": {"image": "x", "choice": {"a": "1", "b": "2"}}}`,
			want: []string{`<nil>: Invalid value: "": "spec.choice" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{name: "root type", value: `"x"`,
			want: []string{`<nil>: Invalid value: "string":  in body must be of type object: "string"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, messages(Validate(s, value(t, tc.value), "")), "Validate(%s)", tc.value)
		})
	}
}

func TestValidateStatusPath(t *testing.T) {
	s := structural(t, `{type: object, properties: {status: {type: object, properties: {phase: {type: string}}}}}`)
	status := s.Properties["status"]
	assert.Equal(t, []string{`status.phase: Invalid value: "integer": phase in body must be of type string: "integer"`},
		messages(Validate(&status, value(t, `{"phase": 1}`), "status")))
}

func TestValidateHandBuiltStructural(t *testing.T) {
	// A Structural built without NewStructural is validated through its
	// own tree, as defaults are.
	s := &Structural{Generic: Generic{Type: "object"}, Properties: map[string]Structural{
		"n": {Generic: Generic{Type: "integer"}, ValueValidation: &ValueValidation{Maximum: new(float64(1))}},
	}}
	assert.Equal(t, []string{`n: Invalid value: 2: n in body should be less than or equal to 1`}, messages(Validate(s, value(t, `{"n": 2}`), "")))
	assert.Empty(t, Validate(nil, value(t, `{"n": 2}`), ""), "a nil schema accepts everything")
}
