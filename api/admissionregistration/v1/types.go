package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Rule names the resources a webhook cares about. A request matches when
// its group, version and resource (with subresource) each match one entry.
type Rule struct {
	// APIGroups are the groups, "" for the core group; "*" is all groups.
	APIGroups []string `json:"apiGroups,omitempty" protobuf:"bytes,1,rep,name=apiGroups"`
	// APIVersions are the versions; "*" is all versions.
	APIVersions []string `json:"apiVersions,omitempty" protobuf:"bytes,2,rep,name=apiVersions"`
	// Resources are resources with an optional subresource: "pods" (the
	// pods themselves only), "pods/status", "pods/*" (pods and all their
	// subresources), "*" (every resource, no subresources), "*/status",
	// "*/*" (everything).
	Resources []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	// Scope restricts the rule to cluster-scoped or namespaced resources.
	// Defaults to "*".
	Scope *ScopeType `json:"scope,omitempty" protobuf:"bytes,4,rep,name=scope"`
}

// ScopeType says which resources a Rule covers by their scope.
type ScopeType string

// The scopes of a Rule. A namespace object itself counts as cluster-scoped.
const (
	ClusterScope    ScopeType = "Cluster"
	NamespacedScope ScopeType = "Namespaced"
	AllScopes       ScopeType = "*"
)

// FailurePolicyType says what an unreachable or broken webhook means for
// the request: reject it (Fail) or go on without the webhook (Ignore). A
// webhook that answers and denies always rejects.
type FailurePolicyType string

// The failure policies.
const (
	Ignore FailurePolicyType = "Ignore"
	Fail   FailurePolicyType = "Fail"
)

// MatchPolicyType says whether a rule matches only the group and version it
// names (Exact) or also other versions of the same resource (Equivalent).
type MatchPolicyType string

// The match policies.
const (
	Exact      MatchPolicyType = "Exact"
	Equivalent MatchPolicyType = "Equivalent"
)

// SideEffectClass says whether calling a webhook changes anything outside
// the object, which decides whether a dry-run request may call it.
type SideEffectClass string

// The side effect classes. v1 accepts only None and NoneOnDryRun on
// create; Unknown and Some survive from objects created through v1beta1.
const (
	SideEffectClassUnknown      SideEffectClass = "Unknown"
	SideEffectClassNone         SideEffectClass = "None"
	SideEffectClassSome         SideEffectClass = "Some"
	SideEffectClassNoneOnDryRun SideEffectClass = "NoneOnDryRun"
)

// ValidatingWebhookConfiguration lists webhooks that may reject, never
// change, the objects the API server is about to store.
type ValidatingWebhookConfiguration struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero" protobuf:"bytes,1,opt,name=metadata"`
	Webhooks          []ValidatingWebhook `json:"webhooks,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=Webhooks"`
}

// ValidatingWebhookConfigurationList is a list of
// ValidatingWebhookConfigurations.
type ValidatingWebhookConfigurationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ValidatingWebhookConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// MutatingWebhookConfiguration lists webhooks that may change (patch) or
// reject the objects the API server is about to store.
type MutatingWebhookConfiguration struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero" protobuf:"bytes,1,opt,name=metadata"`
	Webhooks          []MutatingWebhook `json:"webhooks,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=Webhooks"`
}

// MutatingWebhookConfigurationList is a list of
// MutatingWebhookConfigurations.
type MutatingWebhookConfigurationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero" protobuf:"bytes,1,opt,name=metadata"`
	Items           []MutatingWebhookConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ValidatingWebhook is one webhook the API server asks, in parallel with
// the others, whether a request may proceed.
type ValidatingWebhook struct {
	// Name is a fully qualified name ("pods.policy.example.com"), unique in
	// its configuration; error messages quote it.
	Name         string              `json:"name" protobuf:"bytes,1,opt,name=name"`
	ClientConfig WebhookClientConfig `json:"clientConfig" protobuf:"bytes,2,opt,name=clientConfig"`
	// Rules are the requests the webhook is called for: any rule matching
	// is enough. Webhooks are never called for webhook configurations.
	Rules []RuleWithOperations `json:"rules,omitempty" protobuf:"bytes,3,rep,name=rules"`
	// FailurePolicy defaults to Fail.
	FailurePolicy *FailurePolicyType `json:"failurePolicy,omitempty" protobuf:"bytes,4,opt,name=failurePolicy,casttype=FailurePolicyType"`
	// MatchPolicy defaults to Equivalent.
	MatchPolicy *MatchPolicyType `json:"matchPolicy,omitempty" protobuf:"bytes,9,opt,name=matchPolicy,casttype=MatchPolicyType"`
	// NamespaceSelector is matched against the labels of the request's
	// namespace (of the namespace itself for namespace requests); a
	// cluster-scoped object always matches. Defaults to {}, everything.
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,5,opt,name=namespaceSelector"`
	// ObjectSelector is matched against the labels of the object and of
	// the old object; either matching is enough. Defaults to {}.
	ObjectSelector *metav1.LabelSelector `json:"objectSelector,omitempty" protobuf:"bytes,10,opt,name=objectSelector"`
	// SideEffects is required: None or NoneOnDryRun lets dry-run requests
	// call the webhook; Unknown or Some makes them fail.
	SideEffects *SideEffectClass `json:"sideEffects" protobuf:"bytes,6,opt,name=sideEffects,casttype=SideEffectClass"`
	// TimeoutSeconds bounds each call, 1 to 30. Defaults to 10.
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,7,opt,name=timeoutSeconds"`
	// AdmissionReviewVersions are the AdmissionReview versions the webhook
	// reads, in order of preference; it must include "v1".
	AdmissionReviewVersions []string `json:"admissionReviewVersions" protobuf:"bytes,8,rep,name=admissionReviewVersions"`
	// MatchConditions are CEL expressions that narrow the match further.
	MatchConditions []MatchCondition `json:"matchConditions,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,11,opt,name=matchConditions"`
}

// MutatingWebhook is one webhook the API server calls, in order, to let it
// patch or reject the object. Its fields mean what ValidatingWebhook's
// mean.
type MutatingWebhook struct {
	Name                    string                `json:"name" protobuf:"bytes,1,opt,name=name"`
	ClientConfig            WebhookClientConfig   `json:"clientConfig" protobuf:"bytes,2,opt,name=clientConfig"`
	Rules                   []RuleWithOperations  `json:"rules,omitempty" protobuf:"bytes,3,rep,name=rules"`
	FailurePolicy           *FailurePolicyType    `json:"failurePolicy,omitempty" protobuf:"bytes,4,opt,name=failurePolicy,casttype=FailurePolicyType"`
	MatchPolicy             *MatchPolicyType      `json:"matchPolicy,omitempty" protobuf:"bytes,9,opt,name=matchPolicy,casttype=MatchPolicyType"`
	NamespaceSelector       *metav1.LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,5,opt,name=namespaceSelector"`
	ObjectSelector          *metav1.LabelSelector `json:"objectSelector,omitempty" protobuf:"bytes,11,opt,name=objectSelector"`
	SideEffects             *SideEffectClass      `json:"sideEffects" protobuf:"bytes,6,opt,name=sideEffects,casttype=SideEffectClass"`
	TimeoutSeconds          *int32                `json:"timeoutSeconds,omitempty" protobuf:"varint,7,opt,name=timeoutSeconds"`
	AdmissionReviewVersions []string              `json:"admissionReviewVersions" protobuf:"bytes,8,rep,name=admissionReviewVersions"`
	// ReinvocationPolicy IfNeeded calls the webhook once more when a later
	// webhook changed the object after it. Defaults to Never.
	ReinvocationPolicy *ReinvocationPolicyType `json:"reinvocationPolicy,omitempty" protobuf:"bytes,10,opt,name=reinvocationPolicy,casttype=ReinvocationPolicyType"`
	MatchConditions    []MatchCondition        `json:"matchConditions,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,12,opt,name=matchConditions"`
}

// ReinvocationPolicyType says whether a mutating webhook sees the object
// again after later webhooks changed it.
type ReinvocationPolicyType string

// The reinvocation policies.
const (
	NeverReinvocationPolicy    ReinvocationPolicyType = "Never"
	IfNeededReinvocationPolicy ReinvocationPolicyType = "IfNeeded"
)

// RuleWithOperations is a Rule plus the operations it covers.
type RuleWithOperations struct {
	// Operations are CREATE, UPDATE, DELETE, CONNECT, or "*" for all.
	Operations []OperationType `json:"operations,omitempty" protobuf:"bytes,1,rep,name=operations,casttype=OperationType"`
	Rule       `json:",inline" protobuf:"bytes,2,opt,name=rule"`
}

// OperationType is an operation a Rule covers; the values are the
// admission operations' own spellings.
type OperationType string

// The operations of a rule.
const (
	OperationAll OperationType = "*"
	Create       OperationType = "CREATE"
	Update       OperationType = "UPDATE"
	Delete       OperationType = "DELETE"
	Connect      OperationType = "CONNECT"
)

// WebhookClientConfig says where the webhook listens: exactly one of URL
// and Service. The call is always HTTPS; CABundle holds the PEM roots the
// webhook's certificate is checked against (the system roots when empty).
type WebhookClientConfig struct {
	// URL is "https://host[:port][/path]", without user, query or
	// fragment.
	URL     *string           `json:"url,omitempty" protobuf:"bytes,3,opt,name=url"`
	Service *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	// CABundle is PEM; it is base64 in JSON, as every []byte.
	CABundle []byte `json:"caBundle,omitempty" protobuf:"bytes,2,opt,name=caBundle"`
}

// ServiceReference names a Service in front of the webhook. The call goes
// to https://<name>.<namespace>.svc:<port><path>, dialled at one of the
// Service's endpoints; the certificate must be valid for that DNS name.
type ServiceReference struct {
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	Name      string `json:"name" protobuf:"bytes,2,opt,name=name"`
	// Path is the URL path the request is sent to; "/" when unset.
	Path *string `json:"path,omitempty" protobuf:"bytes,3,opt,name=path"`
	// Port is a port of the Service (its spec.ports[].port). Defaults to
	// 443.
	Port *int32 `json:"port,omitempty" protobuf:"varint,4,opt,name=port"`
}

// MatchCondition is a named CEL expression over the request that must be
// true for the webhook to be called.
type MatchCondition struct {
	Name       string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Expression string `json:"expression" protobuf:"bytes,2,opt,name=expression"`
}
