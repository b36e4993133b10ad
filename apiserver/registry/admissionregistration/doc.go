// Package admissionregistration holds the registry strategies of the
// admissionregistration.k8s.io/v1 resources, mutatingwebhookconfigurations
// and validatingwebhookconfigurations, and their tables. The plugins that
// read these objects to call the webhooks are in
// apiserver/admission/webhook.
//
// Upstream: k8s.io/kubernetes/pkg/registry/admissionregistration.
package admissionregistration
