package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Wildcards of the rules: each matches every value of its field.
const (
	APIGroupAll    = "*"
	ResourceAll    = "*"
	VerbAll        = "*"
	NonResourceAll = "*"
	NameAll        = "*"
	// NamespaceEvery matches every namespace, but not cluster-scoped
	// requests (ClusterScope says whether those match).
	NamespaceEvery = "*"
)

// The names of the mandatory objects, which every cluster has and the
// API server puts back when they are deleted.
const (
	PriorityLevelConfigurationNameExempt   = "exempt"
	PriorityLevelConfigurationNameCatchAll = "catch-all"
	FlowSchemaNameExempt                   = "exempt"
	FlowSchemaNameCatchAll                 = "catch-all"
)

// Condition types of the status of FlowSchemas and priority levels.
const (
	// FlowSchemaConditionDangling is True when the schema names a
	// priority level that does not exist.
	FlowSchemaConditionDangling = "Dangling"
	// PriorityLevelConfigurationConditionConcurrencyShared is upstream's
	// condition of levels that share their concurrency.
	PriorityLevelConfigurationConditionConcurrencyShared = "ConcurrencyShared"
)

// FlowSchemaMaxMatchingPrecedence is the largest matchingPrecedence, that
// of the catch-all schema.
const FlowSchemaMaxMatchingPrecedence int32 = 10000

// The response headers that tell a client which schema and level its
// request was classified into.
const (
	ResponseHeaderMatchedPriorityLevelConfigurationUID = "X-Kubernetes-PF-PriorityLevel-UID"
	ResponseHeaderMatchedFlowSchemaUID                 = "X-Kubernetes-PF-FlowSchema-UID"
)

// AutoUpdateAnnotationKey marks the objects the API server keeps equal to
// its bootstrap configuration at start: "true" lets it rewrite their
// spec, "false" (an administrator's change) leaves them alone.
const AutoUpdateAnnotationKey = "apf.kubernetes.io/autoupdate-spec"

// FlowSchema says which requests belong to a priority level and how they
// are split into flows. Of the schemas that match a request, the one with
// the lowest matchingPrecedence wins.
type FlowSchema struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is the specification of the desired behavior of a FlowSchema.
	Spec FlowSchemaSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is the current status of a FlowSchema.
	Status FlowSchemaStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// FlowSchemaList is a list of FlowSchemas.
type FlowSchemaList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Items is a list of FlowSchemas.
	Items []FlowSchema `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// FlowSchemaSpec describes how the FlowSchema's specification looks like.
type FlowSchemaSpec struct {
	// PriorityLevelConfiguration should reference a
	// PriorityLevelConfiguration in the cluster.
	PriorityLevelConfiguration PriorityLevelConfigurationReference `json:"priorityLevelConfiguration" protobuf:"bytes,1,opt,name=priorityLevelConfiguration"`
	// MatchingPrecedence is used to choose among the FlowSchemas that
	// match a given request: the lowest wins. It must be in [1, 10000].
	MatchingPrecedence int32 `json:"matchingPrecedence" protobuf:"varint,2,opt,name=matchingPrecedence"`
	// DistinguisherMethod defines how to compute the flow distinguisher
	// for requests that match this schema; nil means one flow.
	DistinguisherMethod *FlowDistinguisherMethod `json:"distinguisherMethod,omitempty" protobuf:"bytes,3,opt,name=distinguisherMethod"`
	// Rules describes which requests will match this flow schema; it
	// matches a request if and only if at least one member of rules
	// matches it.
	Rules []PolicyRulesWithSubjects `json:"rules,omitempty" protobuf:"bytes,4,rep,name=rules"`
}

// FlowDistinguisherMethodType is the type of flow distinguisher method.
type FlowDistinguisherMethodType string

// The flow distinguisher methods.
const (
	// FlowDistinguisherMethodByUserType makes one flow per user name.
	FlowDistinguisherMethodByUserType FlowDistinguisherMethodType = "ByUser"
	// FlowDistinguisherMethodByNamespaceType makes one flow per namespace
	// (cluster-scoped requests share one).
	FlowDistinguisherMethodByNamespaceType FlowDistinguisherMethodType = "ByNamespace"
)

// FlowDistinguisherMethod specifies the method of a flow distinguisher.
type FlowDistinguisherMethod struct {
	// Type is the type of flow distinguisher method: ByUser or
	// ByNamespace.
	Type FlowDistinguisherMethodType `json:"type" protobuf:"bytes,1,opt,name=type"`
}

// PriorityLevelConfigurationReference contains information that points
// to the "request-priority" being used.
type PriorityLevelConfigurationReference struct {
	// Name is the name of the priority level configuration being
	// referenced.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// PolicyRulesWithSubjects prescribes a test that applies to a request to
// an apiserver: it matches when at least one subject and at least one
// resource or non-resource rule match.
type PolicyRulesWithSubjects struct {
	// Subjects is the list of normal user, serviceaccount, or group that
	// this rule cares about. There must be at least one member.
	Subjects []Subject `json:"subjects" protobuf:"bytes,1,rep,name=subjects"`
	// ResourceRules is a slice of ResourcePolicyRules that identify
	// matching requests according to their verb and the target resource.
	ResourceRules []ResourcePolicyRule `json:"resourceRules,omitempty" protobuf:"bytes,2,opt,name=resourceRules"`
	// NonResourceRules is a list of NonResourcePolicyRules that identify
	// matching requests according to their verb and the target
	// non-resource URL.
	NonResourceRules []NonResourcePolicyRule `json:"nonResourceRules,omitempty" protobuf:"bytes,3,opt,name=nonResourceRules"`
}

// Subject matches the originator of a request, as identified by the
// request authentication system.
type Subject struct {
	// Kind indicates which one of the other fields is non-empty.
	Kind SubjectKind `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	// User matches based on username.
	User *UserSubject `json:"user,omitempty" protobuf:"bytes,2,opt,name=user"`
	// Group matches based on user group name.
	Group *GroupSubject `json:"group,omitempty" protobuf:"bytes,3,opt,name=group"`
	// ServiceAccount matches ServiceAccounts.
	ServiceAccount *ServiceAccountSubject `json:"serviceAccount,omitempty" protobuf:"bytes,4,opt,name=serviceAccount"`
}

// SubjectKind is the kind of subject.
type SubjectKind string

// The kinds of subject.
const (
	SubjectKindUser           SubjectKind = "User"
	SubjectKindGroup          SubjectKind = "Group"
	SubjectKindServiceAccount SubjectKind = "ServiceAccount"
)

// UserSubject holds detailed information for user-kind subject.
type UserSubject struct {
	// Name is the username that matches, or "*" to match all usernames.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// GroupSubject holds detailed information for group-kind subject.
type GroupSubject struct {
	// Name is the user group that matches, or "*" to match all user
	// groups.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// ServiceAccountSubject holds detailed information for
// service-account-kind subject.
type ServiceAccountSubject struct {
	// Namespace is the namespace of matching ServiceAccount objects.
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	// Name is the name of matching ServiceAccount objects, or "*" to
	// match regardless of name.
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`
}

// ResourcePolicyRule is a predicate that matches some resource requests,
// testing the request's verb and the target resource.
type ResourcePolicyRule struct {
	// Verbs is a list of matching verbs and may not be empty. "*" matches
	// all verbs.
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// APIGroups is a list of matching API groups and may not be empty.
	// "*" matches all API groups.
	APIGroups []string `json:"apiGroups" protobuf:"bytes,2,rep,name=apiGroups"`
	// Resources is a list of matching resources (lowercase and plural,
	// with a subresource after a slash if desired) and may not be empty.
	// "*" matches all resources.
	Resources []string `json:"resources" protobuf:"bytes,3,rep,name=resources"`
	// ClusterScope indicates whether to match requests that do not specify
	// a namespace.
	ClusterScope bool `json:"clusterScope,omitempty" protobuf:"varint,4,opt,name=clusterScope"`
	// Namespaces is a list of target namespaces that restricts matches;
	// "*" matches every namespace.
	Namespaces []string `json:"namespaces" protobuf:"bytes,5,rep,name=namespaces"`
}

// NonResourcePolicyRule is a predicate that matches non-resource requests
// according to their verb and the target non-resource URL.
type NonResourcePolicyRule struct {
	// Verbs is a list of matching verbs and may not be empty. "*" matches
	// all verbs.
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// NonResourceURLs is a set of url prefixes that a user should have
	// access to and may not be empty. "/foo/*" matches "/foo" and every
	// path below it; "*" matches all.
	NonResourceURLs []string `json:"nonResourceURLs" protobuf:"bytes,6,rep,name=nonResourceURLs"`
}

// FlowSchemaStatus represents the current state of a FlowSchema.
type FlowSchemaStatus struct {
	// Conditions is a list of the current states of FlowSchema.
	Conditions []FlowSchemaCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
}

// FlowSchemaCondition describes conditions for a FlowSchema.
type FlowSchemaCondition struct {
	// Type is the type of the condition.
	Type FlowSchemaConditionType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type"`
	// Status is the status of the condition: True, False or Unknown.
	Status ConditionStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
	// LastTransitionTime is the last time the condition transitioned from
	// one status to another.
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a unique, one-word, CamelCase reason for the condition's
	// last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a human-readable message indicating details about last
	// transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// FlowSchemaConditionType is a valid value for FlowSchemaStatusCondition.Type.
type FlowSchemaConditionType string

// ConditionStatus is the status of a condition.
type ConditionStatus string

// The statuses of a condition.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// DeepCopyObject implements runtime.Object.
func (f *FlowSchema) DeepCopyObject() runtime.Object { return runtime.DeepCopy(f) }

// DeepCopy returns a deep copy.
func (f *FlowSchema) DeepCopy() *FlowSchema { return runtime.DeepCopy(f) }

// DeepCopyObject implements runtime.Object.
func (l *FlowSchemaList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }
