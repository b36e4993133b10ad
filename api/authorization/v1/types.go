package v1

import (
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// SubjectAccessReview asks whether a user may do something.
type SubjectAccessReview struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              SubjectAccessReviewSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            SubjectAccessReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectAccessReview asks whether the caller may do something.
type SelfSubjectAccessReview struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              SelfSubjectAccessReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            SubjectAccessReviewStatus   `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// LocalSubjectAccessReview is a SubjectAccessReview scoped to the
// namespace it is created in: a namespace admin may ask it.
type LocalSubjectAccessReview struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              SubjectAccessReviewSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            SubjectAccessReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceAttributes is a resource request to review, as RequestInfo
// describes a real one.
type ResourceAttributes struct {
	Namespace   string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
	Verb        string `json:"verb,omitempty" protobuf:"bytes,2,opt,name=verb"`
	Group       string `json:"group,omitempty" protobuf:"bytes,3,opt,name=group"`
	Version     string `json:"version,omitempty" protobuf:"bytes,4,opt,name=version"`
	Resource    string `json:"resource,omitempty" protobuf:"bytes,5,opt,name=resource"`
	Subresource string `json:"subresource,omitempty" protobuf:"bytes,6,opt,name=subresource"`
	Name        string `json:"name,omitempty" protobuf:"bytes,7,opt,name=name"`
}

// NonResourceAttributes is a request for a path that is not a resource.
type NonResourceAttributes struct {
	Path string `json:"path,omitempty" protobuf:"bytes,1,opt,name=path"`
	Verb string `json:"verb,omitempty" protobuf:"bytes,2,opt,name=verb"`
}

// SubjectAccessReviewSpec is the request and the user to review it for.
// Exactly one of ResourceAttributes and NonResourceAttributes is set.
type SubjectAccessReviewSpec struct {
	ResourceAttributes    *ResourceAttributes    `json:"resourceAttributes,omitempty" protobuf:"bytes,1,opt,name=resourceAttributes"`
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty" protobuf:"bytes,2,opt,name=nonResourceAttributes"`
	User                  string                 `json:"user,omitempty" protobuf:"bytes,3,opt,name=user"`
	Groups                []string               `json:"groups,omitempty" protobuf:"bytes,4,rep,name=groups"`
	Extra                 map[string]ExtraValue  `json:"extra,omitempty" protobuf:"bytes,5,rep,name=extra"`
	UID                   string                 `json:"uid,omitempty" protobuf:"bytes,6,opt,name=uid"`
}

// ExtraValue is the values of one extra attribute of a user; see
// authenticationv1.ExtraValue for why it is a type of its own.
type ExtraValue []string

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (v ExtraValue) AppendProtobuf(b []byte) []byte { return authenticationv1.AppendStrings(b, v) }

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler.
func (v *ExtraValue) UnmarshalProtobuf(data []byte) error {
	s, err := authenticationv1.ConsumeStrings(data)
	*v = s
	return err
}

// SelfSubjectAccessReviewSpec is the request to review for the caller.
type SelfSubjectAccessReviewSpec struct {
	ResourceAttributes    *ResourceAttributes    `json:"resourceAttributes,omitempty" protobuf:"bytes,1,opt,name=resourceAttributes"`
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty" protobuf:"bytes,2,opt,name=nonResourceAttributes"`
}

// SubjectAccessReviewStatus is the answer: Allowed, or not (Denied when
// an authorizer said no outright rather than having no opinion).
type SubjectAccessReviewStatus struct {
	Allowed         bool   `json:"allowed" protobuf:"varint,1,opt,name=allowed"`
	Denied          bool   `json:"denied,omitempty" protobuf:"varint,4,opt,name=denied"`
	Reason          string `json:"reason,omitempty" protobuf:"bytes,2,opt,name=reason"`
	EvaluationError string `json:"evaluationError,omitempty" protobuf:"bytes,3,opt,name=evaluationError"`
}

// SelfSubjectRulesReview lists what the caller may do in a namespace.
type SelfSubjectRulesReview struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              SelfSubjectRulesReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            SubjectRulesReviewStatus   `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectRulesReviewSpec names the namespace to list rules in.
type SelfSubjectRulesReviewSpec struct {
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
}

// SubjectRulesReviewStatus is the rules that apply. Incomplete says an
// authorizer could not list its rules (or an error hid some), so a
// request may be allowed that no rule here shows.
type SubjectRulesReviewStatus struct {
	ResourceRules    []ResourceRule    `json:"resourceRules" protobuf:"bytes,1,rep,name=resourceRules"`
	NonResourceRules []NonResourceRule `json:"nonResourceRules" protobuf:"bytes,2,rep,name=nonResourceRules"`
	// Incomplete carries upstream's tag, "bytes,3,rep": a bool written as
	// varint all the same.
	Incomplete      bool   `json:"incomplete" protobuf:"bytes,3,rep,name=incomplete"`
	EvaluationError string `json:"evaluationError,omitempty" protobuf:"bytes,4,opt,name=evaluationError"`
}

// ResourceRule is a PolicyRule's resource half, as a rules review lists
// it.
type ResourceRule struct {
	Verbs         []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	APIGroups     []string `json:"apiGroups,omitempty" protobuf:"bytes,2,rep,name=apiGroups"`
	Resources     []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	ResourceNames []string `json:"resourceNames,omitempty" protobuf:"bytes,4,rep,name=resourceNames"`
}

// NonResourceRule is a PolicyRule's non-resource half.
type NonResourceRule struct {
	Verbs           []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty" protobuf:"bytes,2,rep,name=nonResourceURLs"`
}

// DeepCopyObject implements runtime.Object.
func (x *SubjectAccessReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *SelfSubjectAccessReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *LocalSubjectAccessReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// DeepCopyObject implements runtime.Object.
func (x *SelfSubjectRulesReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// GroupName is the API group of this package.
const GroupName = "authorization.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers the four review kinds and their create-only
// resources as Kubernetes discovery reports them.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&SubjectAccessReview{}, &SelfSubjectAccessReview{}, &LocalSubjectAccessReview{}, &SelfSubjectRulesReview{})
	gv := SchemeGroupVersion
	for _, info := range []runtime.ResourceInfo{
		{GVR: gv.WithResource("localsubjectaccessreviews"), Kind: "LocalSubjectAccessReview", SingularName: "localsubjectaccessreview", Namespaced: true},
		{GVR: gv.WithResource("selfsubjectaccessreviews"), Kind: "SelfSubjectAccessReview", SingularName: "selfsubjectaccessreview"},
		{GVR: gv.WithResource("selfsubjectrulesreviews"), Kind: "SelfSubjectRulesReview", SingularName: "selfsubjectrulesreview"},
		{GVR: gv.WithResource("subjectaccessreviews"), Kind: "SubjectAccessReview", SingularName: "subjectaccessreview"},
	} {
		info.Verbs = []string{"create"}
		if err := s.AddResource(info); err != nil {
			return err
		}
	}
	return nil
}
