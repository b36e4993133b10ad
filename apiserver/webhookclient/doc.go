// Package webhookclient makes the API server's HTTPS calls to webhooks:
// the admission webhooks of apiserver/admission/webhook and the
// conversion webhooks of custom resources. A call POSTs a JSON review to
// the webhook's URL, or to a Service resolved to one of its endpoints,
// trusting the webhook's caBundle, and reads the JSON answer back; what
// the review means is the caller's business.
//
// It sits beside the request path rather than on it: admission calls it
// between the mutating and validating plugins and the registry, the
// storage of a custom resource whose conversion strategy is Webhook calls
// it on every read and write at another version than the stored one.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ClientManager,
// ServiceResolver, ClientConfig).
package webhookclient
