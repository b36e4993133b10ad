// Package podsecurity is the PodSecurity admission plugin: it holds pods
// to the Pod Security Standards (privileged, baseline, restricted) that
// their namespace's pod-security.kubernetes.io labels choose. It runs
// among the validating plugins, after schema validation:
//
//	enforce  refuses a pod that violates the level (403 Forbidden);
//	warn     admits it and tells the client (a Warning response header);
//	audit    admits it and records the violation in the audit Event.
//
// Workload resources (Deployments, ReplicaSets, StatefulSets, Jobs) are
// never refused: their pod templates get warn and audit only, as the pods
// they create will be refused. A namespace update that tightens enforce
// warns about the namespace's existing pods that would violate it.
//
// Every check evaluates the newest version of the standards: a label
// pod-security.kubernetes.io/enforce-version: v1.25 is accepted and
// shows in messages, but a pod is held to today's checks. Namespaces
// without labels are privileged, and nothing is exempt unless Plugin's
// Exemptions say so.
//
// Upstream: k8s.io/pod-security-admission (admission, policy, api) and
// k8s.io/kubernetes/plugin/pkg/admission/security/podsecurity.
package podsecurity
