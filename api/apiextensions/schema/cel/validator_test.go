package cel

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

func structural(t *testing.T, y string) *schema.Structural {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	require.NoError(t, err)
	var p apiextensionsv1.JSONSchemaProps
	require.NoError(t, json.Unmarshal(j, &p))
	s, err := schema.NewStructural(&p)
	require.NoError(t, err)
	return s
}

func value(t *testing.T, doc string) any {
	t.Helper()
	if doc == "" {
		return nil
	}
	j, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err)
	v, err := schema.DecodeJSON(j)
	require.NoError(t, err)
	return v
}

func messages(errs apierrors.FieldErrors) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

const widget = `
type: object
x-kubernetes-validations:
- rule: "self.metadata.name.startsWith('w')"
  message: name must start with w
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.minReplicas <= self.replicas"
      messageExpression: "'replicas (' + string(self.replicas) + ') below minReplicas'"
    - rule: "!has(self.mode) || self.mode in ['a', 'b']"
      reason: FieldValueForbidden
      fieldPath: .mode
    - rule: "self.replicas == oldSelf.replicas || self.mutable"
      message: replicas is immutable
    - rule: "!has(self.x__dash__y) || self.namespace != self.x__dash__y"
    properties:
      replicas: {type: integer}
      minReplicas: {type: integer}
      mutable: {type: boolean}
      mode: {type: string}
      ratio:
        type: number
        x-kubernetes-validations: [{rule: "self >= 0.5"}]
      tags:
        type: array
        items: {type: string}
        x-kubernetes-validations: [{rule: "self.all(t, t.matches('^[a-z]+$'))"}, {rule: "self.isSorted()"}]
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string}
            port: {type: integer}
          x-kubernetes-validations:
          - rule: "self.port == oldSelf.port"
            message: port is immutable
      labels:
        type: object
        additionalProperties: {type: string, x-kubernetes-validations: [{rule: "self.size() < 5"}]}
      when: {type: string, format: date-time, x-kubernetes-validations: [{rule: "self > timestamp('2020-01-01T00:00:00Z')"}]}
      x-y: {type: string, x-kubernetes-validations: [{rule: "self != 'bad'"}]}
      namespace: {type: string}
`

func TestValidate(t *testing.T) {
	s := structural(t, widget)
	v := NewValidator(s, true, PerCallLimit)
	require.NotNil(t, v)
	tests := []struct {
		name     string
		obj, old string
		want     []string
	}{
		{name: "valid", obj: `{"metadata": {"name": "w1"}, "spec": {"replicas": 2, "minReplicas": 1, "mode": "a", "ratio": 1, "tags": ["a", "b"]}}`, want: []string{}},
		{name: "failures", obj: `{"metadata": {"name": "x"}, "spec": {"replicas": 1, "minReplicas": 2, "mode": "c", "ratio": 0.1, "tags": ["b", "A"],
			"labels": {"k": "toolong"}, "when": "2019-01-01T00:00:00Z", "x-y": "bad"}}`,
			want: []string{
				`<nil>: Invalid value: name must start with w`,
				`spec: Invalid value: replicas (1) below minReplicas`,
				`spec.mode: Forbidden: failed rule: !has(self.mode) || self.mode in ['a', 'b']`,
				`spec: Invalid value: "object": no such key: namespace evaluating rule: !has(self.x__dash__y) || self.namespace != self.x__dash__y`,
				`spec.labels[k]: Invalid value: "toolong": failed rule: self.size() < 5`,
				`spec.ratio: Invalid value: 0.1: failed rule: self >= 0.5`,
				`spec.tags: Invalid value: failed rule: self.all(t, t.matches('^[a-z]+$'))`,
				`spec.tags: Invalid value: failed rule: self.isSorted()`,
				`spec.when: Invalid value: "2019-01-01T00:00:00Z": failed rule: self > timestamp('2020-01-01T00:00:00Z')`,
				`spec.x-y: Invalid value: "bad": failed rule: self != 'bad'`,
			}},
		{name: "escaped and keyword fields", obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 1, "minReplicas": 1, "x-y": "a", "namespace": "a"}}`,
			want: []string{`spec: Invalid value: failed rule: !has(self.x__dash__y) || self.namespace != self.x__dash__y`}},
		{name: "transition rules", obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 3, "minReplicas": 1, "mutable": false, "ports": [{"name": "a", "port": 2}, {"name": "b", "port": 3}]}}`,
			old: `{"metadata": {"name": "w"}, "spec": {"replicas": 2, "minReplicas": 1, "mutable": false, "ports": [{"name": "b", "port": 3}, {"name": "a", "port": 1}]}}`,
			want: []string{
				`spec: Invalid value: replicas is immutable`,
				`spec.ports[0]: Invalid value: port is immutable`,
			}},
		{name: "no such key", obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 1}}`,
			want: []string{`spec: Invalid value: "object": no such key: minReplicas evaluating rule: self.minReplicas <= self.replicas`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs, remaining := v.Validate(context.Background(), "", value(t, tc.obj), value(t, tc.old), RuntimeCELCostBudget)
			assert.Equal(t, tc.want, messages(errs))
			assert.Greater(t, remaining, int64(0))
		})
	}
}
