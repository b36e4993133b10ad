// Package webhook holds the two dynamic admission plugins of the API
// server: MutatingAdmissionWebhook (Mutating), which calls the webhooks of
// the MutatingWebhookConfigurations in turn and applies their JSON
// patches, and ValidatingAdmissionWebhook (Validating), which calls the
// webhooks of the ValidatingWebhookConfigurations in parallel and rejects
// the request if any of them denies it.
//
// On the request path (mutating admission -> object schema validation ->
// validating admission) Mutating runs after the built-in
// mutating plugins and before the registry validates the object;
// Validating runs after the registry's validation and NamespaceLifecycle,
// just before etcd. Each call POSTs an admission.k8s.io/v1 AdmissionReview
// over HTTPS to the webhook's URL, or to a Service resolved to one of its
// endpoints, and reads one back.
//
// What is matched as in kube-apiserver: rules (operations, groups,
// versions, resources with subresources such as "pods/status", "*/status"
// or "*/*", scope), namespaceSelector (the namespace's labels, or the
// object's own for a namespace), objectSelector (object or old object),
// matchPolicy, failurePolicy, timeoutSeconds, sideEffects against dry-run
// requests, reinvocationPolicy IfNeeded, caBundle, the uid check of the
// response and the wording of the errors. Webhooks are never called for
// requests on webhook configurations themselves, so a broken webhook
// cannot lock its own fix out. A denial reads as current upstream words
// it: `pods "web" is forbidden: admission webhook "NAME" denied the
// request: MESSAGE`, 403 unless the webhook's Status gives a code.
//
// What differs:
//
//   - matchConditions are stored and validated but not evaluated (they
//     are CEL): a webhook is called as if every condition were true.
//   - matchPolicy Equivalent matches other versions of the same group and
//     resource that the server serves (see Mutating.Resources). Every
//     built-in kind is served in one version only, so for them Equivalent
//     is Exact; for a CRD serving several versions the object is sent
//     relabelled to the matched version without conversion, as a CRD with
//     conversion strategy None would be. Upstream's cross-group
//     equivalents (extensions/v1beta1 deployments) do not exist here.
//   - Warnings and auditAnnotations of a response are logged, not
//     returned to the client or written to the audit log: admission has
//     no way to reach the response writer or the audit event.
//   - Between reinvocation rounds the built-in mutating plugins are not
//     run again; instead every patched object is defaulted again
//     (Mutating.SetDefaults), as upstream does after each patch.
//   - A webhook answering with a non-2xx status is reported with the
//     message of the Status it sent, or its body, close to client-go's
//     wording but not word for word.
//   - The options of a request are sent as a bare CreateOptions,
//     UpdateOptions or DeleteOptions (with dryRun), since admission does
//     not see the request's own options.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook (generic,
// mutating, validating, predicates, request, errors).
package webhook
