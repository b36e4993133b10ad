package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidateStructural(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []string
	}{
		{name: "structural", schema: `
type: object
properties:
  metadata: {type: object, properties: {name: {type: string, maxLength: 10}}}
  spec:
    type: object
    properties:
      port: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
      free: {x-kubernetes-preserve-unknown-fields: true}
      choice: {type: object, properties: {a: {type: string}}, oneOf: [{required: [a]}, {properties: {a: {minLength: 1}}}]}
`, want: []string{}},
		{name: "missing types", schema: `{properties: {a: {}, b: {type: array}, c: {type: array, items: {}}}}`,
			want: []string{
				"s.properties[a].type: Required value: must not be empty for specified object fields",
				"s.properties[b].items: Required value: must be specified",
				"s.properties[c].items.type: Required value: must not be empty for specified array items",
				"s.type: Required value: must not be empty at the root",
			}},
		{name: "root", schema: `{type: array, items: {type: string}, additionalProperties: true}`,
			want: []string{
				"s.additionalProperties: Forbidden: must not be used at the root",
				`s.type: Invalid value: "array": must be object at the root`,
			}},
		{name: "metadata", schema: `{type: object, properties: {metadata: {type: object, properties: {name: {type: string}, labels: {type: object}}}, kind: {type: integer}}}`,
			want: []string{
				`s.properties[kind].type: Invalid value: "integer": must be string`,
				"s.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
			}},
		{name: "junctors", schema: `
type: object
properties:
  a:
    type: string
    allOf:
    - type: string
      description: x
      default: y
      nullable: true
      x-kubernetes-list-type: set
  b:
    type: object
    anyOf:
    - properties: {missing: {maxLength: 1}, metadata: {type: object}}
`,
			want: []string{
				"s.properties[a].allOf[0].default: Forbidden: must be undefined to be structural",
				"s.properties[a].allOf[0].description: Forbidden: must be empty to be structural",
				"s.properties[a].allOf[0].nullable: Forbidden: must be false to be structural",
				"s.properties[a].allOf[0].type: Forbidden: must be empty to be structural",
				"s.properties[a].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
				"s.properties[b].anyOf[0].properties[metadata].type: Forbidden: must be empty to be structural",
				"s.properties[b].anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context",
			}},
		// Upstream checks that junctor properties exist in the tree only
		// for the junctors of the root.
		{name: "completeness", schema: `{type: object, properties: {a: {type: string}}, anyOf: [{properties: {b: {maxLength: 1}}}, {required: [a]}]}`,
			want: []string{"s.properties[b]: Required value: because it is defined in s.anyOf[0].properties[b]"}},
		{name: "extensions", schema: `
type: object
properties:
  a: {x-kubernetes-int-or-string: true, x-kubernetes-preserve-unknown-fields: true}
  b: {type: string, x-kubernetes-embedded-resource: true}
  c: {type: object, x-kubernetes-embedded-resource: true}
  d: {type: string, pattern: "("}
`,
			want: []string{
				"s.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
				"s.properties[b].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
				"s.properties[b].type: Invalid value: \"string\": must be object if x-kubernetes-embedded-resource is true",
				"s.properties[c].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
				"s.properties[d].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`",
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, messages(ValidateStructural("s", structural(t, tc.schema))), "ValidateStructural(%s)", tc.schema)
		})
	}
}

func TestNewStructuralRejects(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{name: "id", schema: `{id: x}`, want: "OpenAPIV3Schema 'id' is not supported"},
		{name: "ref", schema: `{$ref: "#/x"}`, want: "OpenAPIV3Schema '$ref' is not supported"},
		{name: "items array", schema: `{type: array, items: [{type: string}]}`, want: "OpenAPIV3Schema 'items' must be a schema, but is an array"},
		{name: "preserve false", schema: `{type: object, x-kubernetes-preserve-unknown-fields: false}`,
			want: "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"},
		{name: "nested", schema: `{type: object, properties: {a: {type: object, definitions: {x: {}}}}}`, want: "OpenAPIV3Schema 'definitions' is not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewStructural(props(t, tc.schema))
			require.Error(t, err, "NewStructural(%s)", tc.schema)
			assert.Equal(t, tc.want, err.Error())
		})
	}
	s, err := NewStructural(nil)
	assert.NoError(t, err)
	assert.Nil(t, s)
}

func TestValidateDefaults(t *testing.T) {
	s := structural(t, `
type: object
properties:
  metadata: {type: object, properties: {name: {type: string, default: "a/b"}}}
  spec:
    type: object
    default: {replicas: 1, unknown: true}
    properties:
      replicas: {type: integer, minimum: 0, default: -1}
      mode: {type: string, enum: [a], default: b}
`)
	errs, err := ValidateDefaults("s", s, true, true)
	require.NoError(t, err)
	assert.Equal(t, []string{
		// Embedded and root metadata names only need to be path segments.
		`s.properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
		`s.properties[spec].default: Invalid value: {"replicas":1,"unknown":true}: must not have unknown fields`,
		`s.properties[spec].properties[mode].default: Unsupported value: "b": supported values: "a"`,
		// A default is validated as a document of its own, so the name
		// in upstream's message is empty.
		`s.properties[spec].properties[replicas].default: Invalid value: -1:  in body should be greater than or equal to 0`,
	}, messages(errs))
}
