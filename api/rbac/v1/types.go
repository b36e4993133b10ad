package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Wildcards and subject kinds, spelled as Kubernetes spells them.
const (
	// APIGroupAll, ResourceAll, VerbAll and NonResourceAll match anything
	// in their list of a PolicyRule.
	APIGroupAll    = "*"
	ResourceAll    = "*"
	VerbAll        = "*"
	NonResourceAll = "*"

	// GroupKind, ServiceAccountKind and UserKind are the kinds of Subject.
	GroupKind          = "Group"
	ServiceAccountKind = "ServiceAccount"
	UserKind           = "User"

	// AutoUpdateAnnotationKey marks a bootstrap role or binding that the
	// API server may add missing permissions or subjects to at start;
	// "false" leaves a customised one alone.
	AutoUpdateAnnotationKey = "rbac.authorization.kubernetes.io/autoupdate"
)

// PolicyRule says which verbs are allowed on which resources (or
// non-resource URLs). A rule grants; nothing ever denies.
type PolicyRule struct {
	// Verbs are the verbs allowed; "*" is all of them.
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// APIGroups are the groups of Resources; "" is the core group, "*" any.
	APIGroups []string `json:"apiGroups,omitempty" protobuf:"bytes,2,rep,name=apiGroups"`
	// Resources are resource names, "pods" or "pods/log" for a subresource,
	// "*/scale" for a subresource of any resource, "*" for all.
	Resources []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	// ResourceNames restricts the rule to objects of these names. Empty
	// means any.
	ResourceNames []string `json:"resourceNames,omitempty" protobuf:"bytes,4,rep,name=resourceNames"`
	// NonResourceURLs are paths ("/healthz"), a trailing "*" a prefix.
	// Only a ClusterRole bound by a ClusterRoleBinding may grant them.
	NonResourceURLs []string `json:"nonResourceURLs,omitempty" protobuf:"bytes,5,rep,name=nonResourceURLs"`
}

// Subject is who a binding grants its role to: a User, a Group or a
// ServiceAccount.
type Subject struct {
	Kind string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	// APIGroup is "rbac.authorization.k8s.io" for users and groups and ""
	// for ServiceAccounts.
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,2,opt,name=apiGroup"`
	Name     string `json:"name" protobuf:"bytes,3,opt,name=name"`
	// Namespace is a ServiceAccount's; in a RoleBinding it defaults to the
	// binding's.
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// RoleRef names the Role or ClusterRole a binding grants. It cannot change
// once the binding exists: a different role is a different binding.
type RoleRef struct {
	APIGroup string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	Kind     string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	Name     string `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// Role is a set of rules in one namespace.
type Role struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Rules             []PolicyRule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
}

// RoleBinding grants a Role, or a ClusterRole's rules within its own
// namespace, to subjects.
type RoleBinding struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Subjects          []Subject `json:"subjects,omitempty" protobuf:"bytes,2,rep,name=subjects"`
	RoleRef           RoleRef   `json:"roleRef" protobuf:"bytes,3,opt,name=roleRef"`
}

// RoleBindingList is a list of RoleBindings.
type RoleBindingList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []RoleBinding `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// RoleList is a list of Roles.
type RoleList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Role `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ClusterRole is a set of rules usable cluster-wide (by a
// ClusterRoleBinding) or in one namespace (by a RoleBinding).
type ClusterRole struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Rules             []PolicyRule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
	// AggregationRule, when set, makes Rules the controller-managed union
	// of the rules of the ClusterRoles it selects: writes to Rules are
	// overwritten.
	AggregationRule *AggregationRule `json:"aggregationRule,omitempty" protobuf:"bytes,3,opt,name=aggregationRule"`
}

// AggregationRule selects the ClusterRoles whose rules a ClusterRole
// aggregates: one matching any selector is included.
type AggregationRule struct {
	ClusterRoleSelectors []metav1.LabelSelector `json:"clusterRoleSelectors,omitempty" protobuf:"bytes,1,rep,name=clusterRoleSelectors"`
}

// ClusterRoleBinding grants a ClusterRole to subjects in every namespace
// and for non-resource URLs.
type ClusterRoleBinding struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Subjects          []Subject `json:"subjects,omitempty" protobuf:"bytes,2,rep,name=subjects"`
	RoleRef           RoleRef   `json:"roleRef" protobuf:"bytes,3,opt,name=roleRef"`
}

// ClusterRoleBindingList is a list of ClusterRoleBindings.
type ClusterRoleBindingList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ClusterRoleBinding `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ClusterRoleList is a list of ClusterRoles.
type ClusterRoleList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ClusterRole `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching these methods.

// DeepCopyObject implements runtime.Object.
func (x *Role) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Role) DeepCopy() *Role { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *RoleList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *RoleBinding) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopy returns a copy of x that shares nothing with it.
func (x *RoleBinding) DeepCopy() *RoleBinding { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *RoleBindingList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *ClusterRole) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ClusterRole) DeepCopy() *ClusterRole { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *ClusterRoleList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *ClusterRoleBinding) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ClusterRoleBinding) DeepCopy() *ClusterRoleBinding { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *ClusterRoleBindingList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }
