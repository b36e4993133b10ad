package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// validMutatingConfig is what a webhook's installer applies: one webhook
// on pod creates, served at a URL, defaulted by the server.
func validMutatingConfig() *admissionregistrationv1.MutatingWebhookConfiguration {
	c := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-defaults"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name:         "pods.defaults.example.com",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptrTo("https://127.0.0.1:8443/mutate")},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}},
			}},
			SideEffects:             ptrTo(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	admissionregistrationv1.SetDefaults(c)
	return c
}

func TestValidateMutatingWebhookConfiguration(t *testing.T) {
	type hook = admissionregistrationv1.MutatingWebhook
	tests := []struct {
		name   string
		mutate func(*hook)
		want   []string
	}{
		{name: "valid", mutate: func(*hook) {}, want: []string{}},
		{name: "two segments", mutate: func(h *hook) { h.Name = "example.com" }, want: []string{"FieldValueInvalid webhooks[0].name"}},
		{name: "not a subdomain", mutate: func(h *hook) { h.Name = "Pods.example.com" }, want: []string{"FieldValueInvalid webhooks[0].name"}},
		{name: "no name", mutate: func(h *hook) { h.Name = "" }, want: []string{"FieldValueRequired webhooks[0].name"}},
		{name: "no sideEffects", mutate: func(h *hook) { h.SideEffects = nil }, want: []string{"FieldValueRequired webhooks[0].sideEffects"}},
		{name: "sideEffects Unknown", mutate: func(h *hook) { h.SideEffects = ptrTo(admissionregistrationv1.SideEffectClassUnknown) },
			want: []string{"FieldValueNotSupported webhooks[0].sideEffects"}},
		{name: "sideEffects NoneOnDryRun", mutate: func(h *hook) { h.SideEffects = ptrTo(admissionregistrationv1.SideEffectClassNoneOnDryRun) }, want: []string{}},
		{name: "no review versions", mutate: func(h *hook) { h.AdmissionReviewVersions = nil }, want: []string{"FieldValueRequired webhooks[0].admissionReviewVersions"}},
		{name: "v1beta1 only", mutate: func(h *hook) { h.AdmissionReviewVersions = []string{"v1beta1"} },
			want: []string{"FieldValueInvalid webhooks[0].admissionReviewVersions"}},
		{name: "duplicate review version", mutate: func(h *hook) { h.AdmissionReviewVersions = []string{"v1", "v1"} },
			want: []string{"FieldValueInvalid webhooks[0].admissionReviewVersions[1]"}},
		{name: "timeout 0", mutate: func(h *hook) { h.TimeoutSeconds = ptrTo(int32(0)) }, want: []string{"FieldValueInvalid webhooks[0].timeoutSeconds"}},
		{name: "timeout 31", mutate: func(h *hook) { h.TimeoutSeconds = ptrTo(int32(31)) }, want: []string{"FieldValueInvalid webhooks[0].timeoutSeconds"}},
		{name: "timeout 30", mutate: func(h *hook) { h.TimeoutSeconds = ptrTo(int32(30)) }, want: []string{}},
		{name: "failurePolicy", mutate: func(h *hook) { h.FailurePolicy = ptrTo(admissionregistrationv1.FailurePolicyType("Retry")) },
			want: []string{"FieldValueNotSupported webhooks[0].failurePolicy"}},
		{name: "matchPolicy", mutate: func(h *hook) { h.MatchPolicy = ptrTo(admissionregistrationv1.MatchPolicyType("Fuzzy")) },
			want: []string{"FieldValueNotSupported webhooks[0].matchPolicy"}},
		{name: "reinvocationPolicy", mutate: func(h *hook) { h.ReinvocationPolicy = ptrTo(admissionregistrationv1.ReinvocationPolicyType("Always")) },
			want: []string{"FieldValueNotSupported webhooks[0].reinvocationPolicy"}},
		{name: "http", mutate: func(h *hook) { h.ClientConfig.URL = ptrTo("http://127.0.0.1/") }, want: []string{"FieldValueInvalid webhooks[0].clientConfig.url"}},
		{name: "query", mutate: func(h *hook) { h.ClientConfig.URL = ptrTo("https://127.0.0.1/?a=b") }, want: []string{"FieldValueInvalid webhooks[0].clientConfig.url"}},
		{name: "fragment", mutate: func(h *hook) { h.ClientConfig.URL = ptrTo("https://127.0.0.1/#x") }, want: []string{"FieldValueInvalid webhooks[0].clientConfig.url"}},
		{name: "user", mutate: func(h *hook) { h.ClientConfig.URL = ptrTo("https://me@127.0.0.1/") }, want: []string{"FieldValueInvalid webhooks[0].clientConfig.url"}},
		{name: "no host", mutate: func(h *hook) { h.ClientConfig.URL = ptrTo("https:///mutate") }, want: []string{"FieldValueInvalid webhooks[0].clientConfig.url"}},
		{name: "url and service", mutate: func(h *hook) {
			h.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: "default", Name: "hook"}
		}, want: []string{"FieldValueRequired webhooks[0].clientConfig"}},
		{name: "neither url nor service", mutate: func(h *hook) { h.ClientConfig.URL = nil }, want: []string{"FieldValueRequired webhooks[0].clientConfig"}},
		{name: "service", mutate: func(h *hook) {
			h.ClientConfig = admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "default", Name: "hook", Path: ptrTo("/mutate/pods")}}
		}, want: []string{}},
		{name: "service without name and bad port", mutate: func(h *hook) {
			h.ClientConfig = admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "default", Port: ptrTo(int32(0))}}
		}, want: []string{"FieldValueRequired webhooks[0].clientConfig.service.name", "FieldValueInvalid webhooks[0].clientConfig.service.port"}},
		{name: "service path", mutate: func(h *hook) {
			h.ClientConfig = admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "default", Name: "hook", Path: ptrTo("mutate//Pods")}}
		}, want: []string{"FieldValueInvalid webhooks[0].clientConfig.service.path", "FieldValueInvalid webhooks[0].clientConfig.service.path", "FieldValueInvalid webhooks[0].clientConfig.service.path"}},
		{name: "bad selector", mutate: func(h *hook) {
			h.NamespaceSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "In"}}}
		}, want: []string{"FieldValueRequired webhooks[0].namespaceSelector.matchExpressions[0].values"}},
		{name: "match conditions", mutate: func(h *hook) {
			h.MatchConditions = []admissionregistrationv1.MatchCondition{{Name: "not-system", Expression: "true"}, {Name: "not-system", Expression: " "}}
		}, want: []string{"FieldValueRequired webhooks[0].matchConditions[1].expression", "FieldValueDuplicate webhooks[0].matchConditions[1].name"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := validMutatingConfig()
			tc.mutate(&c.Webhooks[0])
			got := ValidateMutatingWebhookConfiguration(c)
			assert.Equal(t, tc.want, summary(got), "ValidateMutatingWebhookConfiguration(%s): %v", tc.name, got)
		})
	}
}

func TestValidateWebhookRules(t *testing.T) {
	type rule = admissionregistrationv1.RuleWithOperations
	tests := []struct {
		name   string
		mutate func(*rule)
		want   []string
	}{
		{name: "subresource", mutate: func(r *rule) { r.Resources = []string{"pods", "pods/status"} }, want: []string{}},
		{name: "wildcards", mutate: func(r *rule) { r.Resources = []string{"*", "*/status"} }, want: []string{}},
		{name: "double wildcard with others", mutate: func(r *rule) { r.Resources = []string{"*/*", "pods"} }, want: []string{"FieldValueInvalid webhooks[0].rules[0].resources"}},
		{name: "wildcard and plain", mutate: func(r *rule) { r.Resources = []string{"*", "pods"} }, want: []string{"FieldValueInvalid webhooks[0].rules[0].resources"}},
		{name: "covered subresource", mutate: func(r *rule) { r.Resources = []string{"pods/*", "pods/status"} }, want: []string{"FieldValueInvalid webhooks[0].rules[0].resources[1]"}},
		{name: "covered resource", mutate: func(r *rule) { r.Resources = []string{"*/status", "pods/status"} }, want: []string{"FieldValueInvalid webhooks[0].rules[0].resources[1]"}},
		{name: "no resources", mutate: func(r *rule) { r.Resources = nil }, want: []string{"FieldValueRequired webhooks[0].rules[0].resources"}},
		{name: "empty resource", mutate: func(r *rule) { r.Resources = []string{""} }, want: []string{"FieldValueRequired webhooks[0].rules[0].resources[0]"}},
		{name: "no operations", mutate: func(r *rule) { r.Operations = nil }, want: []string{"FieldValueRequired webhooks[0].rules[0].operations"}},
		{name: "wildcard operation with others", mutate: func(r *rule) { r.Operations = []admissionregistrationv1.OperationType{"*", "CREATE"} },
			want: []string{"FieldValueInvalid webhooks[0].rules[0].operations"}},
		{name: "unknown operation", mutate: func(r *rule) { r.Operations = []admissionregistrationv1.OperationType{"PATCH"} },
			want: []string{"FieldValueNotSupported webhooks[0].rules[0].operations[0]"}},
		{name: "no groups", mutate: func(r *rule) { r.APIGroups = nil }, want: []string{"FieldValueRequired webhooks[0].rules[0].apiGroups"}},
		{name: "wildcard group with others", mutate: func(r *rule) { r.APIGroups = []string{"*", "apps"} }, want: []string{"FieldValueInvalid webhooks[0].rules[0].apiGroups"}},
		{name: "empty version", mutate: func(r *rule) { r.APIVersions = []string{""} }, want: []string{"FieldValueRequired webhooks[0].rules[0].apiVersions[0]"}},
		{name: "no versions", mutate: func(r *rule) { r.APIVersions = nil }, want: []string{"FieldValueRequired webhooks[0].rules[0].apiVersions"}},
		{name: "scope", mutate: func(r *rule) { r.Scope = ptrTo(admissionregistrationv1.ScopeType("Node")) }, want: []string{"FieldValueNotSupported webhooks[0].rules[0].scope"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := validMutatingConfig()
			tc.mutate(&c.Webhooks[0].Rules[0])
			got := ValidateMutatingWebhookConfiguration(c)
			assert.Equal(t, tc.want, summary(got), "rules (%s): %v", tc.name, got)
		})
	}
}

// The messages a client sees read as Kubernetes' do.
func TestValidateWebhookMessages(t *testing.T) {
	c := validMutatingConfig()
	h := &c.Webhooks[0]
	h.Name = "example.com"
	h.SideEffects = ptrTo(admissionregistrationv1.SideEffectClassSome)
	h.AdmissionReviewVersions = []string{"v1beta1"}
	h.ClientConfig.URL = ptrTo("http://127.0.0.1/mutate")
	want := []string{
		`webhooks[0].name: Invalid value: "example.com": should be a domain with at least three segments separated by dots`,
		`webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`,
		`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
		`webhooks[0].admissionReviewVersions: Invalid value: []string{"v1beta1"}: must include at least one of v1`,
	}
	var got []string
	for _, e := range ValidateMutatingWebhookConfiguration(c) {
		got = append(got, e.Error())
	}
	assert.Equal(t, want, got)
}

func TestValidateValidatingWebhookConfiguration(t *testing.T) {
	hook := func(name string) admissionregistrationv1.ValidatingWebhook {
		return admissionregistrationv1.ValidatingWebhook{
			Name:                    name,
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{URL: ptrTo("https://hooks.example.com/validate")},
			SideEffects:             ptrTo(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1", "v1beta1"},
		}
	}
	c := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "policy"},
		Webhooks:   []admissionregistrationv1.ValidatingWebhook{hook("a.policy.example.com"), hook("a.policy.example.com")},
	}
	admissionregistrationv1.SetDefaults(c)
	assert.Equal(t, []string{"FieldValueDuplicate webhooks[1].name"}, summary(ValidateValidatingWebhookConfiguration(c)))

	c.Webhooks[1].Name = "b.policy.example.com"
	assert.Empty(t, ValidateValidatingWebhookConfiguration(c))
	c.Namespace = "default"
	assert.Equal(t, []string{"FieldValueForbidden metadata.namespace"}, summary(ValidateValidatingWebhookConfiguration(c)))
	c.Namespace = ""
	c.Name = strings.Repeat("a", 254)
	assert.Equal(t, []string{"FieldValueInvalid metadata.name"}, summary(ValidateValidatingWebhookConfiguration(c)))
}

// An update keeps a v1-only rule only when the stored object obeyed it:
// objects stored under laxer rules stay editable.
func TestValidateWebhookConfigurationUpdate(t *testing.T) {
	stored := func() *admissionregistrationv1.ValidatingWebhookConfiguration {
		c := &admissionregistrationv1.ValidatingWebhookConfiguration{
			ObjectMeta: metav1.ObjectMeta{Name: "policy", UID: "u", ResourceVersion: "3"},
			Webhooks: []admissionregistrationv1.ValidatingWebhook{{
				Name:                    "a.policy.example.com",
				ClientConfig:            admissionregistrationv1.WebhookClientConfig{URL: ptrTo("https://hooks.example.com/validate")},
				SideEffects:             ptrTo(admissionregistrationv1.SideEffectClassNone),
				AdmissionReviewVersions: []string{"v1"},
			}},
		}
		admissionregistrationv1.SetDefaults(c)
		return c
	}
	old, c := stored(), stored()
	c.Webhooks[0].SideEffects = ptrTo(admissionregistrationv1.SideEffectClassUnknown)
	assert.Equal(t, []string{"FieldValueNotSupported webhooks[0].sideEffects"}, summary(ValidateValidatingWebhookConfigurationUpdate(c, old)))

	old.Webhooks[0].SideEffects = ptrTo(admissionregistrationv1.SideEffectClassUnknown)
	assert.Empty(t, ValidateValidatingWebhookConfigurationUpdate(c, old), "old object already had side effects")

	c = stored()
	c.Name = "renamed"
	assert.Equal(t, []string{"FieldValueInvalid metadata.name"}, summary(ValidateValidatingWebhookConfigurationUpdate(c, stored())))

	mOld, m := validMutatingConfig(), validMutatingConfig()
	mOld.ResourceVersion, m.ResourceVersion = "1", "1"
	m.Webhooks = append(m.Webhooks, m.Webhooks[0])
	assert.Equal(t, []string{"FieldValueDuplicate webhooks[1].name"}, summary(ValidateMutatingWebhookConfigurationUpdate(m, mOld)))
}
