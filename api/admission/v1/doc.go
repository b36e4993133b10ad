// Package v1 holds admission.k8s.io/v1: the AdmissionReview the API server
// POSTs to an admission webhook, carrying an AdmissionRequest, and that the
// webhook sends back with an AdmissionResponse in it.
//
// Import it as admissionv1. The JSON is Kubernetes' byte for byte, so a
// webhook written for a real cluster (with k8s.io/api, controller-runtime's
// webhook package, or by hand) serves minicp unchanged. The object,
// oldObject and options of a request stay raw JSON (json.RawMessage, for
// upstream's runtime.RawExtension), written as null when absent, as
// upstream writes them. AdmissionReview is never stored and has no
// resource: it exists only on the webhook wire.
//
// Upstream: k8s.io/api/admission/v1.
package v1
