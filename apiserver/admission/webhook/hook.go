package webhook

import (
	"cmp"
	"fmt"
	"slices"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// hook is what dispatching needs of one MutatingWebhook or
// ValidatingWebhook, with the defaults of fields a configuration left
// unset (stored configurations are defaulted already; this covers other
// sources).
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook (WebhookAccessor).
type hook struct {
	// uid identifies the webhook across reinvocation rounds:
	// "<configuration>/<webhook>/<index>".
	uid               string
	name              string
	clientConfig      *admissionregistrationv1.WebhookClientConfig
	rules             []admissionregistrationv1.RuleWithOperations
	failurePolicy     admissionregistrationv1.FailurePolicyType
	matchPolicy       admissionregistrationv1.MatchPolicyType
	namespaceSelector *metav1.LabelSelector
	objectSelector    *metav1.LabelSelector
	// sideEffects is nil when the configuration has none (v1 requires one).
	sideEffects        *admissionregistrationv1.SideEffectClass
	timeoutSeconds     int32
	reinvocationPolicy admissionregistrationv1.ReinvocationPolicyType
}

// mutatingHooks returns the webhooks of configs in the order they are
// called: configurations by name, then each one's webhooks in order.
//
// Upstream: k8s.io/apiserver/pkg/admission/configuration
// (mutatingWebhookConfigurationManager, which sorts by name).
func mutatingHooks(configs []*admissionregistrationv1.MutatingWebhookConfiguration) []*hook {
	configs = slices.SortedFunc(slices.Values(configs), func(a, b *admissionregistrationv1.MutatingWebhookConfiguration) int {
		return cmp.Compare(a.Name, b.Name)
	})
	var hooks []*hook
	for _, c := range configs {
		for i := range c.Webhooks {
			w := &c.Webhooks[i]
			h := newHook(c.Name, i, w.Name, &w.ClientConfig, w.Rules, w.FailurePolicy, w.MatchPolicy,
				w.NamespaceSelector, w.ObjectSelector, w.SideEffects, w.TimeoutSeconds)
			h.reinvocationPolicy = deref(w.ReinvocationPolicy, admissionregistrationv1.NeverReinvocationPolicy)
			hooks = append(hooks, h)
		}
	}
	return hooks
}

// validatingHooks returns the webhooks of configs, configurations by name.
func validatingHooks(configs []*admissionregistrationv1.ValidatingWebhookConfiguration) []*hook {
	configs = slices.SortedFunc(slices.Values(configs), func(a, b *admissionregistrationv1.ValidatingWebhookConfiguration) int {
		return cmp.Compare(a.Name, b.Name)
	})
	var hooks []*hook
	for _, c := range configs {
		for i := range c.Webhooks {
			w := &c.Webhooks[i]
			hooks = append(hooks, newHook(c.Name, i, w.Name, &w.ClientConfig, w.Rules, w.FailurePolicy, w.MatchPolicy,
				w.NamespaceSelector, w.ObjectSelector, w.SideEffects, w.TimeoutSeconds))
		}
	}
	return hooks
}

func newHook(configuration string, index int, name string, cc *admissionregistrationv1.WebhookClientConfig,
	rules []admissionregistrationv1.RuleWithOperations, failure *admissionregistrationv1.FailurePolicyType,
	match *admissionregistrationv1.MatchPolicyType, nsSel, objSel *metav1.LabelSelector,
	sideEffects *admissionregistrationv1.SideEffectClass, timeout *int32) *hook {
	return &hook{
		uid:  fmt.Sprintf("%s/%s/%d", configuration, name, index),
		name: name, clientConfig: cc, rules: rules,
		failurePolicy:     deref(failure, admissionregistrationv1.Fail),
		matchPolicy:       deref(match, admissionregistrationv1.Equivalent),
		namespaceSelector: cmp.Or(nsSel, &metav1.LabelSelector{}),
		objectSelector:    cmp.Or(objSel, &metav1.LabelSelector{}),
		sideEffects:       sideEffects,
		timeoutSeconds:    deref(timeout, int32(admissionregistrationv1.DefaultTimeoutSeconds)),
	}
}

// deref returns *p, or def when p is nil.
func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
