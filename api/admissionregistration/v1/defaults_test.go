package v1_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

func ptr[T any](v T) *T { return &v }

func TestSetDefaults(t *testing.T) {
	service := admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "default", Name: "hook"}}
	m := &admissionregistrationv1.MutatingWebhookConfiguration{Webhooks: []admissionregistrationv1.MutatingWebhook{{
		ClientConfig: service, Rules: []admissionregistrationv1.RuleWithOperations{{}},
	}}}
	admissionregistrationv1.SetDefaults(m)
	h := m.Webhooks[0]
	assert.Equal(t, admissionregistrationv1.Fail, *h.FailurePolicy)
	assert.Equal(t, admissionregistrationv1.Equivalent, *h.MatchPolicy)
	assert.Equal(t, &metav1.LabelSelector{}, h.NamespaceSelector)
	assert.Equal(t, &metav1.LabelSelector{}, h.ObjectSelector)
	assert.Equal(t, int32(10), *h.TimeoutSeconds)
	assert.Equal(t, admissionregistrationv1.NeverReinvocationPolicy, *h.ReinvocationPolicy)
	assert.Equal(t, admissionregistrationv1.AllScopes, *h.Rules[0].Scope)
	assert.Equal(t, int32(443), *h.ClientConfig.Service.Port)
	assert.Nil(t, h.SideEffects, "sideEffects has no default in v1")

	v := &admissionregistrationv1.ValidatingWebhookConfigurationList{Items: []admissionregistrationv1.ValidatingWebhookConfiguration{{
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			ClientConfig:  admissionregistrationv1.WebhookClientConfig{URL: ptr("https://example.com")},
			FailurePolicy: ptr(admissionregistrationv1.Ignore), TimeoutSeconds: ptr(int32(3)),
		}},
	}}}
	admissionregistrationv1.SetDefaults(v)
	vh := v.Items[0].Webhooks[0]
	assert.Equal(t, admissionregistrationv1.Ignore, *vh.FailurePolicy, "set values are kept")
	assert.Equal(t, int32(3), *vh.TimeoutSeconds, "set values are kept")
	assert.Equal(t, admissionregistrationv1.Equivalent, *vh.MatchPolicy)
}

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, admissionregistrationv1.AddToScheme(s))
	for _, kind := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
		info, ok := s.ResourceForKind(admissionregistrationv1.SchemeGroupVersion.WithKind(kind))
		require.True(t, ok, "resource of %s", kind)
		assert.False(t, info.Namespaced, "%s is cluster-scoped", kind)
		assert.Equal(t, []string{"api-extensions"}, info.Categories, "%s categories", kind)
		assert.True(t, info.HasVerb("deletecollection"), "%s serves every verb", kind)
		obj, err := s.New(info.ListGVK())
		require.NoError(t, err, "New(%s)", info.ListKind())
		assert.Equal(t, "admissionregistration.k8s.io/v1", obj.GetTypeMeta().APIVersion)
	}
}
