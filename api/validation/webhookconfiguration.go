package validation

import (
	"fmt"
	"slices"
	"strings"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// acceptedAdmissionReviewVersions are the AdmissionReview versions minicp
// sends. Upstream also accepts v1beta1; minicp speaks v1 only, so a webhook
// that does not read v1 could never be called.
var acceptedAdmissionReviewVersions = []string{"v1"}

// The enumerations of a webhook, sorted as upstream lists them in
// "supported values".
var (
	supportedFailurePolicies      = []string{string(admissionregistrationv1.Fail), string(admissionregistrationv1.Ignore)}
	supportedMatchPolicies        = []string{string(admissionregistrationv1.Equivalent), string(admissionregistrationv1.Exact)}
	supportedSideEffectClasses    = []string{"None", "NoneOnDryRun", "Some", "Unknown"}
	noSideEffectClasses           = []string{"None", "NoneOnDryRun"}
	supportedReinvocationPolicies = []string{string(admissionregistrationv1.IfNeededReinvocationPolicy), string(admissionregistrationv1.NeverReinvocationPolicy)}
	supportedOperations           = []string{"*", "CONNECT", "CREATE", "DELETE", "UPDATE"}
	supportedScopes               = []string{"*", "Cluster", "Namespaced"}
)

// maxMatchConditions bounds a webhook's match conditions, as upstream does
// to bound the CEL cost of one request.
const maxMatchConditions = 64

// webhookOptions are the rules that v1 enforces on every create but, on an
// update, only when the stored object already obeyed them, so that objects
// written under laxer rules (through v1beta1, upstream) can still be
// edited.
type webhookOptions struct {
	requireNoSideEffects                    bool
	requireRecognizedAdmissionReviewVersion bool
	requireUniqueWebhookNames               bool
}

// createOptions are the rules of a create: all of them.
var createOptions = webhookOptions{requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true}

// ValidateMutatingWebhookConfiguration checks a new
// MutatingWebhookConfiguration: a cluster-scoped object named by a DNS
// subdomain whose webhooks each have a fully qualified unique name, one
// client config (an https URL or a service), valid rules and selectors,
// sideEffects None or NoneOnDryRun, a timeout of 1 to 30 seconds and
// admissionReviewVersions including v1. It expects a defaulted object.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (ValidateMutatingWebhookConfiguration).
func ValidateMutatingWebhookConfiguration(c *admissionregistrationv1.MutatingWebhookConfiguration) apierrors.FieldErrors {
	return validateMutatingWebhookConfiguration(c, createOptions)
}

// ValidateMutatingWebhookConfigurationUpdate checks an update: the metadata
// update rules and the new object, with the v1-only rules applied only if
// old obeyed them.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (ValidateMutatingWebhookConfigurationUpdate).
func ValidateMutatingWebhookConfigurationUpdate(c, old *admissionregistrationv1.MutatingWebhookConfiguration) apierrors.FieldErrors {
	hooks := make([]webhookFields, len(old.Webhooks))
	for i := range old.Webhooks {
		hooks[i] = mutatingFields(&old.Webhooks[i])
	}
	errs := ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, validateMutatingWebhookConfiguration(c, updateOptions(hooks))...)
}

// ValidateValidatingWebhookConfiguration checks a new
// ValidatingWebhookConfiguration with the rules of
// ValidateMutatingWebhookConfiguration, less the reinvocation policy.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (ValidateValidatingWebhookConfiguration).
func ValidateValidatingWebhookConfiguration(c *admissionregistrationv1.ValidatingWebhookConfiguration) apierrors.FieldErrors {
	return validateValidatingWebhookConfiguration(c, createOptions)
}

// ValidateValidatingWebhookConfigurationUpdate checks an update as
// ValidateMutatingWebhookConfigurationUpdate does.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (ValidateValidatingWebhookConfigurationUpdate).
func ValidateValidatingWebhookConfigurationUpdate(c, old *admissionregistrationv1.ValidatingWebhookConfiguration) apierrors.FieldErrors {
	hooks := make([]webhookFields, len(old.Webhooks))
	for i := range old.Webhooks {
		hooks[i] = validatingFields(&old.Webhooks[i])
	}
	errs := ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, validateValidatingWebhookConfiguration(c, updateOptions(hooks))...)
}

func validateMutatingWebhookConfiguration(c *admissionregistrationv1.MutatingWebhookConfiguration, opts webhookOptions) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&c.ObjectMeta, false, NameIsDNSSubdomain, "metadata")
	hooks := make([]webhookFields, len(c.Webhooks))
	for i := range c.Webhooks {
		hooks[i] = mutatingFields(&c.Webhooks[i])
	}
	return append(errs, validateWebhooks(hooks, opts)...)
}

func validateValidatingWebhookConfiguration(c *admissionregistrationv1.ValidatingWebhookConfiguration, opts webhookOptions) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&c.ObjectMeta, false, NameIsDNSSubdomain, "metadata")
	hooks := make([]webhookFields, len(c.Webhooks))
	for i := range c.Webhooks {
		hooks[i] = validatingFields(&c.Webhooks[i])
	}
	return append(errs, validateWebhooks(hooks, opts)...)
}

// webhookFields are the fields MutatingWebhook and ValidatingWebhook share
// (and the mutating one's reinvocation policy), so one function checks
// both.
type webhookFields struct {
	name                    string
	clientConfig            *admissionregistrationv1.WebhookClientConfig
	rules                   []admissionregistrationv1.RuleWithOperations
	failurePolicy           *admissionregistrationv1.FailurePolicyType
	matchPolicy             *admissionregistrationv1.MatchPolicyType
	namespaceSelector       *metav1.LabelSelector
	objectSelector          *metav1.LabelSelector
	sideEffects             *admissionregistrationv1.SideEffectClass
	timeoutSeconds          *int32
	admissionReviewVersions []string
	reinvocationPolicy      *admissionregistrationv1.ReinvocationPolicyType
	matchConditions         []admissionregistrationv1.MatchCondition
}

func mutatingFields(h *admissionregistrationv1.MutatingWebhook) webhookFields {
	return webhookFields{
		name: h.Name, clientConfig: &h.ClientConfig, rules: h.Rules, failurePolicy: h.FailurePolicy,
		matchPolicy: h.MatchPolicy, namespaceSelector: h.NamespaceSelector, objectSelector: h.ObjectSelector,
		sideEffects: h.SideEffects, timeoutSeconds: h.TimeoutSeconds, admissionReviewVersions: h.AdmissionReviewVersions,
		reinvocationPolicy: h.ReinvocationPolicy, matchConditions: h.MatchConditions,
	}
}

func validatingFields(h *admissionregistrationv1.ValidatingWebhook) webhookFields {
	return webhookFields{
		name: h.Name, clientConfig: &h.ClientConfig, rules: h.Rules, failurePolicy: h.FailurePolicy,
		matchPolicy: h.MatchPolicy, namespaceSelector: h.NamespaceSelector, objectSelector: h.ObjectSelector,
		sideEffects: h.SideEffects, timeoutSeconds: h.TimeoutSeconds, admissionReviewVersions: h.AdmissionReviewVersions,
		matchConditions: h.MatchConditions,
	}
}

// updateOptions keeps each v1-only rule for an update only if the stored
// webhooks already obey it.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validatingHasNoSideEffects, validatingHasAcceptedAdmissionReviewVersions,
// validatingHasUniqueWebhookNames).
func updateOptions(old []webhookFields) webhookOptions {
	opts := createOptions
	names := map[string]bool{}
	for _, h := range old {
		if h.sideEffects == nil || !slices.Contains(noSideEffectClasses, string(*h.sideEffects)) {
			opts.requireNoSideEffects = false
		}
		if !slices.ContainsFunc(h.admissionReviewVersions, isAcceptedAdmissionReviewVersion) {
			opts.requireRecognizedAdmissionReviewVersion = false
		}
		if names[h.name] {
			opts.requireUniqueWebhookNames = false
		}
		names[h.name] = true
	}
	return opts
}

func validateWebhooks(hooks []webhookFields, opts webhookOptions) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	names := map[string]bool{}
	for i, h := range hooks {
		p := path("webhooks").index(i)
		errs = append(errs, validateWebhook(h, opts, p)...)
		errs = append(errs, validateAdmissionReviewVersions(h.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, p.child("admissionReviewVersions"))...)
		if opts.requireUniqueWebhookNames && h.name != "" {
			if names[h.name] {
				errs = append(errs, apierrors.Duplicate(p.child("name").String(), h.name))
			}
			names[h.name] = true
		}
	}
	return errs
}

// validateWebhook checks one webhook.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validateMutatingWebhook, validateValidatingWebhook).
func validateWebhook(h webhookFields, opts webhookOptions, p path) apierrors.FieldErrors {
	errs := isFullyQualifiedName(h.name, p.child("name"))
	for i := range h.rules {
		errs = append(errs, validateRuleWithOperations(&h.rules[i], p.child("rules").index(i))...)
	}
	if h.failurePolicy != nil && !slices.Contains(supportedFailurePolicies, string(*h.failurePolicy)) {
		errs = append(errs, apierrors.NotSupported(p.child("failurePolicy").String(), *h.failurePolicy, supportedFailurePolicies))
	}
	if h.matchPolicy != nil && !slices.Contains(supportedMatchPolicies, string(*h.matchPolicy)) {
		errs = append(errs, apierrors.NotSupported(p.child("matchPolicy").String(), *h.matchPolicy, supportedMatchPolicies))
	}
	allowedSideEffects := supportedSideEffectClasses
	if opts.requireNoSideEffects {
		allowedSideEffects = noSideEffectClasses
	}
	switch {
	case h.sideEffects == nil:
		errs = append(errs, apierrors.Required(p.child("sideEffects").String(), "must specify one of "+strings.Join(allowedSideEffects, ", ")))
	case !slices.Contains(allowedSideEffects, string(*h.sideEffects)):
		errs = append(errs, apierrors.NotSupported(p.child("sideEffects").String(), *h.sideEffects, allowedSideEffects))
	}
	// Upstream's bounds: a call must not hold the client longer than a
	// typical request timeout, and a second is the shortest to reach a
	// webhook at all.
	if t := h.timeoutSeconds; t != nil && (*t > 30 || *t < 1) {
		errs = append(errs, apierrors.Invalid(p.child("timeoutSeconds").String(), *t, "the timeout value must be between 1 and 30 seconds"))
	}
	if r := h.reinvocationPolicy; r != nil && !slices.Contains(supportedReinvocationPolicies, string(*r)) {
		errs = append(errs, apierrors.NotSupported(p.child("reinvocationPolicy").String(), *r, supportedReinvocationPolicies))
	}
	errs = append(errs, ValidateLabelSelector(h.namespaceSelector, p.child("namespaceSelector").String())...)
	errs = append(errs, ValidateLabelSelector(h.objectSelector, p.child("objectSelector").String())...)
	errs = append(errs, validateWebhookClientConfig(h.clientConfig, p.child("clientConfig"))...)
	return append(errs, validateMatchConditions(h.matchConditions, p.child("matchConditions"))...)
}

// isFullyQualifiedName checks a webhook name: a DNS subdomain of at least
// three labels ("pods.policy.example.com"), so that names of different
// owners do not collide.
//
// Upstream: k8s.io/apimachinery/pkg/api/validation (IsFullyQualifiedName).
func isFullyQualifiedName(name string, p path) apierrors.FieldErrors {
	if name == "" {
		return apierrors.FieldErrors{apierrors.Required(p.String(), "")}
	}
	if msgs := IsDNS1123Subdomain(name); len(msgs) > 0 {
		return apierrors.FieldErrors{apierrors.Invalid(p.String(), name, strings.Join(msgs, ","))}
	}
	if len(strings.Split(name, ".")) < 3 {
		return apierrors.FieldErrors{apierrors.Invalid(p.String(), name, "should be a domain with at least three segments separated by dots")}
	}
	return nil
}

func isAcceptedAdmissionReviewVersion(v string) bool {
	return slices.Contains(acceptedAdmissionReviewVersions, v)
}

// validateAdmissionReviewVersions checks the list is not empty, has no
// duplicates, holds DNS-1035 labels and, when required, a version minicp
// sends.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validateAdmissionReviewVersions).
func validateAdmissionReviewVersions(versions []string, requireRecognized bool, p path) apierrors.FieldErrors {
	accepted := strings.Join(acceptedAdmissionReviewVersions, ", ")
	if len(versions) == 0 {
		return apierrors.FieldErrors{apierrors.Required(p.String(), "must specify one of "+accepted)}
	}
	var errs apierrors.FieldErrors
	seen := map[string]bool{}
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, apierrors.Invalid(p.index(i).String(), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range IsDNS1035Label(v) {
			errs = append(errs, apierrors.Invalid(p.index(i).String(), v, msg))
		}
	}
	if requireRecognized && !slices.ContainsFunc(versions, isAcceptedAdmissionReviewVersion) {
		errs = append(errs, apierrors.Invalid(p.String(), versions, "must include at least one of "+accepted))
	}
	return errs
}

// validateMatchConditions checks the conditions' names (qualified, unique)
// and that each has an expression. The expressions are CEL, which minicp
// does not compile: a syntax error is not caught here.
//
// Upstream: k8s.io/kubernetes/pkg/apis/admissionregistration/validation
// (validateMatchConditions).
func validateMatchConditions(conditions []admissionregistrationv1.MatchCondition, p path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(conditions) > maxMatchConditions {
		errs = append(errs, apierrors.Invalid(p.String(), len(conditions), fmt.Sprintf("must have at most %d items", maxMatchConditions)))
	}
	names := map[string]bool{}
	for i, c := range conditions {
		cp := p.index(i)
		if strings.TrimSpace(c.Expression) == "" {
			errs = append(errs, apierrors.Required(cp.child("expression").String(), ""))
		}
		if c.Name == "" {
			errs = append(errs, apierrors.Required(cp.child("name").String(), ""))
			continue
		}
		for _, msg := range IsQualifiedName(c.Name) {
			errs = append(errs, apierrors.Invalid(cp.child("name").String(), c.Name, msg))
		}
		if names[c.Name] {
			errs = append(errs, apierrors.Duplicate(cp.child("name").String(), c.Name))
		}
		names[c.Name] = true
	}
	return errs
}
