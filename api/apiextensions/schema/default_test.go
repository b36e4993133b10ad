package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefault(t *testing.T) {
	s := structural(t, `
type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      replicas: {type: integer, default: 1}
      mode: {type: string, nullable: true, default: fast}
      strict: {type: string, default: x}
      nested: {type: object, default: {a: {}, dropped: 1}, properties: {a: {type: object, properties: {b: {type: string, default: B}}}}}
      ports: {type: array, items: {type: object, properties: {port: {type: integer, default: 80}}}}
      names: {type: array, items: {type: string, default: none}}
      map: {type: object, additionalProperties: {type: object, default: {x: 1}, properties: {x: {type: integer}, yy: {type: integer, default: 2}}}}
`)
	require.NoError(t, PruneDefaults(s))
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "empty object", in: `{}`,
			want: `{"spec": {"replicas": 1, "mode": "fast", "strict": "x", "nested": {"a": {"b": "B"}}}}`},
		{name: "null spec is not nullable", in: `{"spec": null}`,
			want: `{"spec": {"replicas": 1, "mode": "fast", "strict": "x", "nested": {"a": {"b": "B"}}}}`},
		{name: "set values are kept, nullable null too", in: `{"spec": {"replicas": 3, "mode": null, "strict": null, "nested": {}}}`,
			want: `{"spec": {"replicas": 3, "mode": null, "strict": "x", "nested": {}}}`},
		{name: "items and map values", in: `{"spec": {"ports": [{}, {"port": 1}], "names": [null, "a"], "map": {"a": null, "b": {}}}}`,
			want: `{"spec": {"replicas": 1, "mode": "fast", "strict": "x", "nested": {"a": {"b": "B"}},
			        "ports": [{"port": 80}, {"port": 1}], "names": ["none", "a"], "map": {"a": {"x": 1, "yy": 2}, "b": {"yy": 2}}}}`},
		{name: "wrong types are left alone", in: `{"spec": {"ports": "x", "map": [1]}}`,
			want: `{"spec": {"replicas": 1, "mode": "fast", "strict": "x", "nested": {"a": {"b": "B"}}, "ports": "x", "map": [1]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := value(t, tc.in)
			Default(v, s)
			assert.Equal(t, value(t, tc.want), v, "Default(%s)", tc.in)
		})
	}
}

func TestDefaultsAreCopied(t *testing.T) {
	s := structural(t, `{type: object, properties: {a: {type: object, default: {x: [1]}, properties: {x: {type: array, items: {type: integer}}}}}}`)
	first, second := value(t, `{}`).(map[string]any), value(t, `{}`).(map[string]any)
	Default(first, s)
	Default(second, s)
	first["a"].(map[string]any)["x"].([]any)[0] = int64(2)
	assert.Equal(t, value(t, `{"a": {"x": [1]}}`), second, "a default is copied into each object")
	assert.Equal(t, value(t, `{"x": [1]}`), s.Properties["a"].Default.Object, "the schema's default is untouched")
}

func TestPruneNonNullableNullsWithoutDefaults(t *testing.T) {
	s := structural(t, `
type: object
properties:
  a: {type: string}
  b: {type: string, nullable: true}
  c: {type: string, default: x}
  m: {type: object, additionalProperties: {type: string}}
  l: {type: array, items: {type: object, properties: {z: {type: string}}}}
`)
	v := value(t, `{"a": null, "b": null, "c": null, "unknown": null, "m": {"k": null}, "l": [{"z": null}, null]}`)
	PruneNonNullableNullsWithoutDefaults(v, s)
	assert.Equal(t, value(t, `{"b": null, "c": null, "unknown": null, "m": {}, "l": [{}, null]}`), v)
}

func TestPruneDefaults(t *testing.T) {
	s := structural(t, `
type: object
properties:
  spec:
    type: object
    default: {a: 1, unknown: 2}
    properties:
      a: {type: integer}
      pod:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
        default: {apiVersion: v1, kind: Pod, metadata: {name: x, bogus: 1}}
`)
	require.NoError(t, PruneDefaults(s))
	assert.Equal(t, value(t, `{"a": 1}`), s.Properties["spec"].Default.Object)
	assert.Equal(t, value(t, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}}`),
		s.Properties["spec"].Properties["pod"].Default.Object, "metadata of a default is coerced")
}

func TestCoerce(t *testing.T) {
	s := structural(t, `{type: object, properties: {pod: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}}}`)
	v := value(t, `{"pod": {"apiVersion": "v1", "kind": 1, "metadata": {"name": "x", "labels": "bad", "bogus": true}}}`)
	err := Coerce(deepCopyJSON(v), s, false, false)
	require.NotNil(t, err)
	assert.Equal(t, `pod.kind: Invalid value: 1: must be a string`, err.Error())

	require.Nil(t, Coerce(v, s, false, true), "dropping invalid fields")
	assert.Equal(t, value(t, `{"pod": {"apiVersion": "v1", "metadata": {"name": "x"}}}`), v)
}
