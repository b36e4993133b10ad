package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrune(t *testing.T) {
	s := structural(t, `
type: object
properties:
  spec:
    type: object
    properties:
      known: {type: string}
      list: {type: array, items: {type: object, properties: {a: {type: string}}}}
      labels: {type: object, additionalProperties: {type: string}}
      free: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {strict: {type: object, properties: {a: {type: integer}}}}}
      pod: {type: object, x-kubernetes-embedded-resource: true, properties: {spec: {type: object}}}
`)
	tests := []struct {
		name      string
		in        string
		root      bool
		want      string
		wantPaths []string
	}{
		{name: "nothing unknown", root: true, in: `{"apiVersion": "v1", "kind": "K", "metadata": {"x": 1}, "spec": {"known": "x"}}`,
			want: `{"apiVersion": "v1", "kind": "K", "metadata": {"x": 1}, "spec": {"known": "x"}}`},
		{name: "unknown fields", root: true,
			in:        `{"kind": "K", "extra": 1, "spec": {"known": "x", "foo": 1, "list": [{"a": "x", "b": 1}], "labels": {"a.b": "c"}}}`,
			want:      `{"kind": "K", "spec": {"known": "x", "list": [{"a": "x"}], "labels": {"a.b": "c"}}}`,
			wantPaths: []string{"extra", "spec.foo", "spec.list[0].b"}},
		{name: "preserve unknown fields", root: true,
			in:        `{"spec": {"free": {"any": [1, {"x": 2}], "strict": {"a": 1, "b": 2}}}}`,
			want:      `{"spec": {"free": {"any": [1, {"x": 2}], "strict": {"a": 1}}}}`,
			wantPaths: []string{"spec.free.strict.b"}},
		{name: "embedded resource keeps its type and object meta", root: true,
			in:        `{"spec": {"pod": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}, "spec": {"y": 1}, "status": {}}}}`,
			want:      `{"spec": {"pod": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}, "spec": {}}}}`,
			wantPaths: []string{"spec.pod.spec.y", "spec.pod.status"}},
		// A meta field dropped at the top is not reported, as upstream.
		{name: "not a resource root", root: false, in: `{"kind": "K", "spec": {}}`, want: `{"spec": {}}`},
		{name: "an object where a string is expected is pruned empty", root: true,
			in: `{"spec": {"list": "x", "known": {"a": 1}}}`, want: `{"spec": {"list": "x", "known": {}}}`, wantPaths: []string{"spec.known.a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := value(t, tc.in)
			paths := Prune(v, s, tc.root)
			assert.Equal(t, value(t, tc.want), v, "Prune(%s)", tc.in)
			assert.Equal(t, tc.wantPaths, paths, "unknown fields of %s", tc.in)
		})
	}
}

func TestPruneWithoutSchema(t *testing.T) {
	v := value(t, `{"apiVersion": "v1", "kind": "K", "metadata": {}, "spec": {}}`)
	assert.Equal(t, []string{"spec"}, Prune(v, nil, true))
	assert.Equal(t, value(t, `{"apiVersion": "v1", "kind": "K", "metadata": {}}`), v)
}
