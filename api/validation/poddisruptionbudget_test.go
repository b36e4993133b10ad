package validation

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
)

// validBudget is `kubectl create pdb web --selector=app=web
// --min-available=1`.
func validBudget() *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: policyv1.PodDisruptionBudgetSpec{
			Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: ptrTo(intstr.FromInt32(1)),
		},
	}
}

func TestValidatePodDisruptionBudget(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*policyv1.PodDisruptionBudget)
		want   []string
	}{
		{name: "valid", mutate: func(*policyv1.PodDisruptionBudget) {}, want: []string{}},
		{name: "percent", mutate: func(p *policyv1.PodDisruptionBudget) { p.Spec.MinAvailable = ptrTo(intstr.FromString("100%")) }, want: []string{}},
		{name: "max unavailable zero", mutate: func(p *policyv1.PodDisruptionBudget) {
			p.Spec.MinAvailable, p.Spec.MaxUnavailable = nil, ptrTo(intstr.FromInt32(0))
		}, want: []string{}},
		{name: "neither", mutate: func(p *policyv1.PodDisruptionBudget) { p.Spec.MinAvailable = nil }, want: []string{}},
		{name: "both", mutate: func(p *policyv1.PodDisruptionBudget) { p.Spec.MaxUnavailable = ptrTo(intstr.FromInt32(1)) },
			want: []string{"FieldValueInvalid spec"}},
		{name: "negative", mutate: func(p *policyv1.PodDisruptionBudget) { p.Spec.MinAvailable = ptrTo(intstr.FromInt32(-1)) },
			want: []string{"FieldValueInvalid spec.minAvailable"}},
		{name: "over 100%", mutate: func(p *policyv1.PodDisruptionBudget) {
			p.Spec.MinAvailable, p.Spec.MaxUnavailable = nil, ptrTo(intstr.FromString("101%"))
		}, want: []string{"FieldValueInvalid spec.maxUnavailable"}},
		{name: "not a percent", mutate: func(p *policyv1.PodDisruptionBudget) { p.Spec.MinAvailable = ptrTo(intstr.FromString("half")) },
			want: []string{"FieldValueInvalid spec.minAvailable"}},
		{name: "bad selector", mutate: func(p *policyv1.PodDisruptionBudget) {
			p.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
		}, want: []string{"FieldValueInvalid spec.selector.matchExpressions[0].operator"}},
		{name: "policy", mutate: func(p *policyv1.PodDisruptionBudget) {
			p.Spec.UnhealthyPodEvictionPolicy = ptrTo(policyv1.UnhealthyPodEvictionPolicyType("Never"))
		}, want: []string{"FieldValueNotSupported spec.unhealthyPodEvictionPolicy"}},
		{name: "no namespace", mutate: func(p *policyv1.PodDisruptionBudget) { p.Namespace = "" },
			want: []string{"FieldValueRequired metadata.namespace"}},
	}
	for _, tc := range tests {
		p := validBudget()
		tc.mutate(p)
		got := ValidatePodDisruptionBudget(p)
		assert.Equal(t, tc.want, summary(got), "ValidatePodDisruptionBudget(%s): %v", tc.name, got)
	}

	p := validBudget()
	p.Spec.MinAvailable = ptrTo(intstr.FromString("101%"))
	assert.EqualError(t, ValidatePodDisruptionBudget(p), `spec.minAvailable: Invalid value: "101%": must not be greater than 100%`)
	p.Spec.MinAvailable = nil
	p.Spec.UnhealthyPodEvictionPolicy = ptrTo(policyv1.UnhealthyPodEvictionPolicyType("Never"))
	assert.EqualError(t, ValidatePodDisruptionBudget(p),
		`spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`)
}

func TestValidatePodDisruptionBudgetStatusUpdate(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	old := validBudget()
	old.ResourceVersion = "1"
	tests := []struct {
		name   string
		status policyv1.PodDisruptionBudgetStatus
		want   []string
	}{
		{name: "valid", status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2,
			Conditions: []metav1.Condition{{Type: "DisruptionAllowed", Status: "True", Reason: "SufficientPods", LastTransitionTime: now}}}, want: []string{}},
		{name: "negative", status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: -1, ExpectedPods: -2},
			want: []string{"FieldValueInvalid status.disruptionsAllowed", "FieldValueInvalid status.expectedPods"}},
		{name: "bad condition", status: policyv1.PodDisruptionBudgetStatus{Conditions: []metav1.Condition{{Type: "DisruptionAllowed", Status: "Maybe", Reason: "no spaces allowed"}}},
			want: []string{"FieldValueNotSupported status.conditions[0].status", "FieldValueRequired status.conditions[0].lastTransitionTime",
				"FieldValueInvalid status.conditions[0].reason"}},
		{name: "duplicate condition", status: policyv1.PodDisruptionBudgetStatus{Conditions: []metav1.Condition{
			{Type: "A", Status: "True", Reason: "R", LastTransitionTime: now}, {Type: "A", Status: "True", Reason: "R", LastTransitionTime: now}}},
			want: []string{"FieldValueDuplicate status.conditions[1].type"}},
	}
	for _, tc := range tests {
		p := validBudget()
		p.ResourceVersion = "1"
		p.Status = tc.status
		got := ValidatePodDisruptionBudgetStatusUpdate(p, old)
		assert.Equal(t, tc.want, summary(got), "ValidatePodDisruptionBudgetStatusUpdate(%s): %v", tc.name, got)
	}
}
