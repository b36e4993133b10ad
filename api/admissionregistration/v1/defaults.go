package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// DefaultTimeoutSeconds is a webhook's timeout when it names none:
// upstream's 10s, long enough for a webhook doing a lookup of its own,
// short enough that a hung one does not hold the client for long.
const DefaultTimeoutSeconds = 10

// DefaultServicePort is the Service port a ServiceReference without one
// goes to: HTTPS's.
const DefaultServicePort = 443

// SetDefaults fills what Kubernetes defaults in the webhook configurations
// (and their lists) in place: failurePolicy Fail, matchPolicy Equivalent,
// empty namespace and object selectors, timeoutSeconds 10, reinvocation
// Never, each rule's scope "*" and each service's port 443. Other objects
// are left alone, so it can be chained with the other kinds' SetDefaults.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/v1
// (SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook,
// SetDefaults_Rule, SetDefaults_ServiceReference).
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *MutatingWebhookConfiguration:
		setDefaultsMutating(o)
	case *MutatingWebhookConfigurationList:
		for i := range o.Items {
			setDefaultsMutating(&o.Items[i])
		}
	case *ValidatingWebhookConfiguration:
		setDefaultsValidating(o)
	case *ValidatingWebhookConfigurationList:
		for i := range o.Items {
			setDefaultsValidating(&o.Items[i])
		}
	}
}

func setDefaultsMutating(c *MutatingWebhookConfiguration) {
	for i := range c.Webhooks {
		h := &c.Webhooks[i]
		setDefaultsWebhook(&h.FailurePolicy, &h.MatchPolicy, &h.NamespaceSelector, &h.ObjectSelector, &h.TimeoutSeconds)
		setDefaultsClientConfig(&h.ClientConfig)
		setDefaultsRules(h.Rules)
		if h.ReinvocationPolicy == nil {
			h.ReinvocationPolicy = ptr(NeverReinvocationPolicy)
		}
	}
}

func setDefaultsValidating(c *ValidatingWebhookConfiguration) {
	for i := range c.Webhooks {
		h := &c.Webhooks[i]
		setDefaultsWebhook(&h.FailurePolicy, &h.MatchPolicy, &h.NamespaceSelector, &h.ObjectSelector, &h.TimeoutSeconds)
		setDefaultsClientConfig(&h.ClientConfig)
		setDefaultsRules(h.Rules)
	}
}

// setDefaultsWebhook defaults the fields both webhook kinds share.
func setDefaultsWebhook(failure **FailurePolicyType, match **MatchPolicyType, nsSel, objSel **metav1.LabelSelector, timeout **int32) {
	if *failure == nil {
		*failure = ptr(Fail)
	}
	if *match == nil {
		*match = ptr(Equivalent)
	}
	if *nsSel == nil {
		*nsSel = &metav1.LabelSelector{}
	}
	if *objSel == nil {
		*objSel = &metav1.LabelSelector{}
	}
	if *timeout == nil {
		*timeout = ptr(int32(DefaultTimeoutSeconds))
	}
}

func setDefaultsClientConfig(cc *WebhookClientConfig) {
	if cc.Service != nil && cc.Service.Port == nil {
		cc.Service.Port = ptr(int32(DefaultServicePort))
	}
}

func setDefaultsRules(rules []RuleWithOperations) {
	for i := range rules {
		if rules[i].Scope == nil {
			rules[i].Scope = ptr(AllScopes)
		}
	}
}

func ptr[T any](v T) *T { return &v }
