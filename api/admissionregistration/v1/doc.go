// Package v1 holds the admissionregistration.k8s.io/v1 kinds: the
// MutatingWebhookConfiguration and ValidatingWebhookConfiguration that
// plug dynamic admission webhooks into the API server's admission chain,
// with their defaults (SetDefaults) and their registration (AddToScheme).
//
// Import it as admissionregistrationv1. Field names, JSON spellings,
// protobuf field numbers and patch strategies match
// k8s.io/api/admissionregistration/v1, so manifests written for a real
// cluster (cert-manager's, a policy engine's) apply unchanged. The
// admission policies of the same group (ValidatingAdmissionPolicy,
// MutatingAdmissionPolicy and their bindings), which need CEL, are not
// here.
//
// Webhooks sit on the request path: mutating admission -> object schema
// validation -> validating admission. The plugins that call them live in
// apiserver/admission/webhook; this package is only the API.
//
// Upstream: k8s.io/api/admissionregistration/v1.
package v1
