package apiextensions

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kstructural "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	kcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"

	"github.com/minicp/minicp/api/apiextensions/schema"
	"github.com/minicp/minicp/api/apiextensions/schema/cel"
)

const celSchema = `
type: object
x-kubernetes-validations:
- rule: "self.metadata.name.startsWith('w')"
  message: name must start with w
- {rule: "self.kind == 'Widget'"}
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.minReplicas <= self.replicas"
      messageExpression: "'replicas (' + string(self.replicas) + ') below minReplicas'"
    - rule: "!has(self.mode) || self.mode in ['a', 'b']"
      reason: FieldValueForbidden
      fieldPath: .mode
    - {rule: "self.replicas == oldSelf.replicas || self.mutable", message: replicas is immutable}
    - {rule: "!has(self.x__dash__y) || self.namespace != self.x__dash__y"}
    - {rule: "!oldSelf.hasValue() || !has(oldSelf.value().mode) || has(self.mode)", optionalOldSelf: true, message: mode cannot be unset}
    - {rule: "self.?mode.orValue('a') != 'z'", reason: FieldValueRequired}
    - {rule: "!has(self.mode) || self.mode != 'dup'", reason: FieldValueDuplicate}
    - {rule: "self.replicas < 100", messageExpression: "self.mode"}
    properties:
      replicas: {type: integer}
      minReplicas: {type: integer}
      mutable: {type: boolean}
      mode: {type: string}
      ratio:
        type: number
        x-kubernetes-validations: [{rule: "self >= 0.5"}, {rule: "self != 1"}]
      tags:
        type: array
        items: {type: string}
        x-kubernetes-validations:
        - {rule: "self.all(t, t.matches('^[a-z]+$'))"}
        - {rule: "self.isSorted()"}
        - {rule: "self.size() == 0 || self.min() != 'zz'"}
        - {rule: "self.all(t, t.find('[0-9]+') == '')"}
      set:
        type: array
        x-kubernetes-list-type: set
        items: {type: string}
        x-kubernetes-validations: [{rule: "self == oldSelf", message: set is immutable}]
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
          - {rule: "self.port == oldSelf.port", message: port is immutable}
      labels:
        type: object
        additionalProperties: {type: string, x-kubernetes-validations: [{rule: "self.size() < 5"}]}
        x-kubernetes-validations: [{rule: "self.all(k, k != 'forbidden')"}]
      when: {type: string, format: date-time, x-kubernetes-validations: [{rule: "self > timestamp('2020-01-01T00:00:00Z')"}]}
      wait: {type: string, format: duration, x-kubernetes-validations: [{rule: "self < duration('1h')"}]}
      x-y: {type: string, x-kubernetes-validations: [{rule: "self != 'bad'"}]}
      namespace: {type: string}
      port: {x-kubernetes-int-or-string: true, x-kubernetes-validations: [{rule: "type(self) == int ? self > 0 : self.endsWith('%')"}]}
      pod:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
        x-kubernetes-validations: [{rule: "self.kind == 'Pod' && self.metadata.name != ''"}]
      broken:
        type: object
        properties: {a: {type: string}}
        x-kubernetes-validations:
        - {rule: "self.b == 'x'"}
        - {rule: "self.a"}
        - {rule: "self.a + 1 == 2"}
        - {rule: "self.a == 'x'", messageExpression: "1"}
        - {rule: "size(self.a) > 100 || self.a == ''", messageExpression: "self.nope"}
`

var celObjects = []struct{ obj, old string }{
	{obj: `{"apiVersion": "v1", "kind": "Widget", "metadata": {"name": "w1"}, "spec": {"replicas": 2, "minReplicas": 1, "mode": "a", "ratio": 1.5, "tags": ["a", "b"]}}`},
	{obj: `{"kind": "Other", "metadata": {"name": "x"}, "spec": {"replicas": 1, "minReplicas": 2, "mode": "c", "ratio": 0.1, "tags": ["b", "A1"],
		"labels": {"k": "toolong", "forbidden": "x"}, "when": "2019-01-01T00:00:00Z", "wait": "2h", "x-y": "bad", "port": "50",
		"pod": {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "p"}}}}`},
	{obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 1, "minReplicas": 1, "x-y": "a", "namespace": "a", "port": 0, "ratio": 1}}`},
	{obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 3, "minReplicas": 1, "mutable": false, "set": ["b", "a"], "ports": [{"name": "a", "port": 2}, {"name": "b", "port": 3}]}}`,
		old: `{"metadata": {"name": "w"}, "spec": {"replicas": 2, "minReplicas": 1, "mode": "a", "set": ["a", "b"], "ports": [{"name": "b", "port": 3}, {"name": "a", "port": 1}]}}`},
	{obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 300, "minReplicas": 1, "mode": "z", "set": ["a"]}}`,
		old: `{"metadata": {"name": "w"}, "spec": {"replicas": 2, "minReplicas": 1, "set": ["a", "b"]}}`},
	{obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 1, "minReplicas": 1, "mode": "dup", "broken": {"a": "y"}}}`},
	{obj: `{"metadata": {"name": "w"}, "spec": {"replicas": 1}}`},
}

var typeNames = regexp.MustCompile(`selfType[0-9]*`)

// celLines normalizes what cannot match: upstream names the rule's
// object types after a random number. It sorts the lines again after.
func celLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = typeNames.ReplaceAllString(l, "selfType")
	}
	slices.Sort(out)
	return out
}

// TestCELMatchesKubernetes evaluates the rules of one schema on both sides
// for each object (and old object) and requires the same errors.
func TestCELMatchesKubernetes(t *testing.T) {
	m, k := schemas(t, celSchema)
	ms, err := schema.NewStructural(m)
	require.NoError(t, err)
	ks, err := kstructural.NewStructural(k)
	require.NoError(t, err)
	mv := cel.NewValidator(ms, true, cel.PerCallLimit)
	kv := kcel.NewValidator(ks, true, cel.PerCallLimit)
	for i, tc := range celObjects {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			obj, old := object(t, tc.obj), any(nil)
			if tc.old != "" {
				old = object(t, tc.old)
			}
			kerrs, krem := kv.Validate(context.Background(), nil, ks, deepCopy(t, obj), deepCopy(t, old), cel.RuntimeCELCostBudget)
			merrs, mrem := mv.Validate(context.Background(), "", obj, old, cel.RuntimeCELCostBudget)
			assert.Equal(t, celLines(upstreamLines(kerrs)), celLines(minicpLines(merrs)), "object %s", tc.obj)
			assert.Equal(t, krem < 0, mrem < 0, "budget exhausted")
		})
	}
}

// TestCELCostLimitMatchesKubernetes runs a quadratic rule over a long list
// on both sides: both stop it at the per-call limit.
func TestCELCostLimitMatchesKubernetes(t *testing.T) {
	m, k := schemas(t, `
type: object
properties:
  list:
    type: array
    items: {type: string}
    x-kubernetes-validations: [{rule: "self.all(a, self.all(b, a.size() + b.size() < 100))"}]
`)
	ms, err := schema.NewStructural(m)
	require.NoError(t, err)
	ks, err := kstructural.NewStructural(k)
	require.NoError(t, err)
	list := make([]any, 2000)
	for i := range list {
		list[i] = "x"
	}
	obj := map[string]any{"list": list}
	kerrs, krem := kcel.NewValidator(ks, true, cel.PerCallLimit).Validate(context.Background(), nil, ks, obj, nil, cel.RuntimeCELCostBudget)
	merrs, mrem := cel.NewValidator(ms, true, cel.PerCallLimit).Validate(context.Background(), "", obj, nil, cel.RuntimeCELCostBudget)
	assert.Equal(t, celLines(upstreamLines(kerrs)), celLines(minicpLines(merrs)))
	assert.Equal(t, krem, mrem)
}
