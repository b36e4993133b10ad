package cel

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"replicas", "replicas", true},
		{"namespace", "__namespace__", true},
		{"x-y", "x__dash__y", true},
		{"a.b/c", "a__dot__b__slash__c", true},
		{"a__b", "a__underscores__b", true},
		{"1abc", "", false},
		{"a b", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		got, ok := Escape(tc.in)
		assert.Equal(t, tc.ok, ok, "Escape(%q)", tc.in)
		assert.Equal(t, tc.want, got, "Escape(%q)", tc.in)
		if ok {
			back, ok := Unescape(got)
			assert.True(t, ok, "Unescape(%q)", got)
			assert.Equal(t, tc.in, back, "Unescape(Escape(%q))", tc.in)
		}
	}
}

func TestCompile(t *testing.T) {
	s := structural(t, `
type: object
properties:
  replicas: {type: integer}
  name: {type: string}
x-kubernetes-validations:
- {rule: "self.replicas > 0"}
- {rule: "self.replicas"}
- {rule: "self.nope == 1"}
- {rule: "self.replicas == oldSelf.replicas"}
- {rule: "self.replicas > 0", messageExpression: "self.replicas"}
- {rule: "self.name.matches('[')"}
- {rule: "self.replicas > 0", fieldPath: ".replicas"}
- {rule: "   "}
`)
	results, err := Compile(s, false, PerCallLimit)
	require.NoError(t, err)
	require.Len(t, results, 8)
	assert.Nil(t, results[0].Error)
	assert.NotNil(t, results[0].Program)
	assert.Equal(t, "cel expression must evaluate to a bool", results[1].Error.Detail)
	assert.Contains(t, results[2].Error.Detail, "undefined field 'nope'")
	assert.True(t, results[3].UsesOldSelf)
	assert.Equal(t, "messageExpression must evaluate to a string", results[4].MessageExpressionError.Detail)
	assert.Contains(t, results[5].Error.Detail, "compilation failed")
	assert.Equal(t, "replicas", results[6].NormalizedRuleFieldPath)
	assert.Nil(t, results[7].Program, "an empty rule compiles to nothing")

	_, err = Compile(structural(t, `{x-kubernetes-preserve-unknown-fields: true, x-kubernetes-validations: [{rule: "true"}]}`), false, PerCallLimit)
	assert.Error(t, err, "an untyped node has no CEL type")
}

func TestOptionalOldSelf(t *testing.T) {
	s := structural(t, `
type: object
properties:
  a: {type: string}
x-kubernetes-validations:
- {rule: "!oldSelf.hasValue() || self.a == oldSelf.value().a", message: a is immutable, optionalOldSelf: true}
- {rule: "oldSelf.hasValue() || self.a == 'new'", message: created with new, optionalOldSelf: true}
- {rule: "self.a == oldSelf.a", message: plain transition}
`)
	v := NewValidator(s, false, PerCallLimit)
	errs, _ := v.Validate(context.Background(), "", value(t, `{"a": "x"}`), nil, RuntimeCELCostBudget)
	assert.Equal(t, []string{`<nil>: Invalid value: created with new`}, messages(errs), "on create")
	errs, _ = v.Validate(context.Background(), "", value(t, `{"a": "x"}`), value(t, `{"a": "y"}`), RuntimeCELCostBudget)
	assert.Equal(t, []string{`<nil>: Invalid value: a is immutable`, `<nil>: Invalid value: plain transition`}, messages(errs), "on update")
}

func TestBudget(t *testing.T) {
	s := structural(t, `
type: object
properties:
  list: {type: array, items: {type: integer}, x-kubernetes-validations: [{rule: "self.all(x, x >= 0)"}]}
`)
	v := NewValidator(s, false, PerCallLimit)
	list := make([]any, 1000)
	for i := range list {
		list[i] = int64(i)
	}
	errs, remaining := v.Validate(context.Background(), "", map[string]any{"list": list}, nil, 10)
	assert.Equal(t, []string{`list: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run`}, messages(errs))
	assert.Negative(t, remaining)

	errs, remaining = v.Validate(context.Background(), "", map[string]any{"list": list}, nil, RuntimeCELCostBudget)
	assert.Empty(t, errs)
	assert.Less(t, remaining, int64(RuntimeCELCostBudget))
}

func TestBlockingError(t *testing.T) {
	assert.Nil(t, BlockingError(nil))
	assert.Nil(t, BlockingError(apierrors.FieldErrors{{Type: metav1.CauseTypeFieldValueInvalid, Field: "a"}}))
	err := BlockingError(apierrors.FieldErrors{{Type: "FieldValueTypeInvalid", Field: "a"}})
	require.NotNil(t, err)
	assert.Equal(t, "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation", err.Error())
}

func TestNilValidator(t *testing.T) {
	assert.Nil(t, NewValidator(structural(t, `{type: object, properties: {a: {type: string}}}`), true, PerCallLimit), "no rules")
	var v *Validator
	errs, remaining := v.Validate(context.Background(), "", map[string]any{}, nil, 5)
	assert.Empty(t, errs)
	assert.Equal(t, int64(5), remaining)
}
