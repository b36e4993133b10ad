package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
)

// TestBootstrapFlowControlValid: the configuration the server writes at
// start passes its own validation.
func TestBootstrapFlowControlValid(t *testing.T) {
	for _, fs := range append(flowcontrolv1.MandatoryFlowSchemas(), flowcontrolv1.SuggestedFlowSchemas()...) {
		assert.Empty(t, ValidateFlowSchema(fs), "flowschema %s", fs.Name)
	}
	for _, pl := range append(flowcontrolv1.MandatoryPriorityLevelConfigurations(), flowcontrolv1.SuggestedPriorityLevelConfigurations()...) {
		assert.Empty(t, ValidatePriorityLevelConfiguration(pl), "prioritylevelconfiguration %s", pl.Name)
	}
}

func TestValidateFlowSchema(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*flowcontrolv1.FlowSchema)
		want   []string
	}{
		{name: "valid", mutate: func(*flowcontrolv1.FlowSchema) {}, want: []string{}},
		{name: "zero precedence", mutate: func(fs *flowcontrolv1.FlowSchema) { fs.Spec.MatchingPrecedence = 0 },
			want: []string{"FieldValueInvalid spec.matchingPrecedence"}},
		{name: "precedence over 10000", mutate: func(fs *flowcontrolv1.FlowSchema) { fs.Spec.MatchingPrecedence = 10001 },
			want: []string{"FieldValueInvalid spec.matchingPrecedence"}},
		{name: "no level", mutate: func(fs *flowcontrolv1.FlowSchema) { fs.Spec.PriorityLevelConfiguration.Name = "" },
			want: []string{"FieldValueRequired spec.priorityLevelConfiguration.name"}},
		{name: "bad distinguisher", mutate: func(fs *flowcontrolv1.FlowSchema) {
			fs.Spec.DistinguisherMethod = &flowcontrolv1.FlowDistinguisherMethod{Type: "ByGroup"}
		}, want: []string{"FieldValueNotSupported spec.distinguisherMethod.type"}},
		{name: "no subjects", mutate: func(fs *flowcontrolv1.FlowSchema) { fs.Spec.Rules[0].Subjects = nil },
			want: []string{"FieldValueRequired spec.rules[0].subjects"}},
		{name: "no rules", mutate: func(fs *flowcontrolv1.FlowSchema) {
			fs.Spec.Rules[0].ResourceRules, fs.Spec.Rules[0].NonResourceRules = nil, nil
		}, want: []string{"FieldValueRequired spec.rules[0]"}},
		{name: "wildcard with others", mutate: func(fs *flowcontrolv1.FlowSchema) {
			fs.Spec.Rules[0].ResourceRules[0].Verbs = []string{"*", "get"}
		}, want: []string{"FieldValueInvalid spec.rules[0].resourceRules[0].verbs"}},
		{name: "namespaced rule without namespaces", mutate: func(fs *flowcontrolv1.FlowSchema) {
			fs.Spec.Rules[0].ResourceRules[0].Namespaces, fs.Spec.Rules[0].ResourceRules[0].ClusterScope = nil, false
		}, want: []string{"FieldValueRequired spec.rules[0].resourceRules[0].namespaces"}},
		{name: "relative URL", mutate: func(fs *flowcontrolv1.FlowSchema) {
			fs.Spec.Rules[0].NonResourceRules[0].NonResourceURLs = []string{"healthz"}
		}, want: []string{"FieldValueInvalid spec.rules[0].nonResourceRules[0].nonResourceURLs[0]"}},
		{name: "unknown subject kind", mutate: func(fs *flowcontrolv1.FlowSchema) { fs.Spec.Rules[0].Subjects[0].Kind = "Robot" },
			want: []string{"FieldValueNotSupported spec.rules[0].subjects[0].kind"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := flowcontrolv1.SuggestedFlowSchemas()[0] // system-nodes: resource and non-resource rules
			tc.mutate(fs)
			assert.Equal(t, tc.want, summary(ValidateFlowSchema(fs)))
		})
	}
}

func TestValidatePriorityLevelConfiguration(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*flowcontrolv1.PriorityLevelConfiguration)
		want   []string
		msg    string
	}{
		{name: "valid", mutate: func(*flowcontrolv1.PriorityLevelConfiguration) {}, want: []string{}},
		{name: "exempt type, other name", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Type, pl.Spec.Limited = flowcontrolv1.PriorityLevelEnablementExempt, nil
		}, want: []string{"FieldValueInvalid spec.type"}, msg: "type must be 'Exempt' if and only if name is 'exempt'"},
		{name: "unknown type", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) { pl.Spec.Type = "Sometimes" },
			want: []string{"FieldValueNotSupported spec.type"}},
		{name: "hand bigger than deck", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Limited.LimitResponse.Queuing.HandSize = 100
		}, want: []string{"FieldValueInvalid spec.limited.limitResponse.queuing.handSize"}, msg: "should not be greater than queues (64)"},
		{name: "too much entropy", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Limited.LimitResponse.Queuing.Queues, pl.Spec.Limited.LimitResponse.Queuing.HandSize = 512, 32
		}, want: []string{"FieldValueInvalid spec.limited.limitResponse.queuing.handSize"},
			msg: "required entropy bits of deckSize 512 and handSize 32 should not be greater than 60"},
		{name: "queue without queuing", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Limited.LimitResponse.Queuing = nil
		}, want: []string{"FieldValueRequired spec.limited.limitResponse.queuing"}},
		{name: "reject with queuing", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Limited.LimitResponse.Type = flowcontrolv1.LimitResponseTypeReject
		}, want: []string{"FieldValueForbidden spec.limited.limitResponse.queuing"}},
		{name: "lendable over 100", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Limited.LendablePercent = ptrTo(int32(101))
		}, want: []string{"FieldValueInvalid spec.limited.lendablePercent"}},
		{name: "negative shares", mutate: func(pl *flowcontrolv1.PriorityLevelConfiguration) {
			pl.Spec.Limited.NominalConcurrencyShares = ptrTo(int32(-1))
		}, want: []string{"FieldValueInvalid spec.limited.nominalConcurrencyShares"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl := flowcontrolv1.SuggestedPriorityLevelConfigurations()[0] // system
			tc.mutate(pl)
			errs := ValidatePriorityLevelConfiguration(pl)
			assert.Equal(t, tc.want, summary(errs))
			if tc.msg != "" && len(errs) > 0 {
				assert.Equal(t, tc.msg, errs[0].Detail)
			}
		})
	}
}
