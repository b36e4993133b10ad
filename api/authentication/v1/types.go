package v1

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// UserInfo is who a request was made by, as authentication established
// it.
type UserInfo struct {
	Username string                `json:"username,omitempty" protobuf:"bytes,1,opt,name=username"`
	UID      string                `json:"uid,omitempty" protobuf:"bytes,2,opt,name=uid"`
	Groups   []string              `json:"groups,omitempty" protobuf:"bytes,3,rep,name=groups"`
	Extra    map[string]ExtraValue `json:"extra,omitempty" protobuf:"bytes,4,rep,name=extra"`
}

// ExtraValue is the values of one extra attribute of a user. It is its
// own type because protobuf cannot put a repeated field in a map: it goes
// on the wire as a message repeating the strings as field 1.
type ExtraValue []string

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (v ExtraValue) AppendProtobuf(b []byte) []byte { return AppendStrings(b, v) }

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler.
func (v *ExtraValue) UnmarshalProtobuf(data []byte) error {
	s, err := ConsumeStrings(data)
	*v = s
	return err
}

// AppendStrings appends ss as repeated string field 1: the wire form of
// every ExtraValue type (authorization.k8s.io has its own).
func AppendStrings(b []byte, ss []string) []byte {
	for _, s := range ss {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	return b
}

// ConsumeStrings reads the repeated string field 1 of a message, skipping
// any other field, as AppendStrings writes it.
func ConsumeStrings(data []byte) ([]string, error) {
	out := []string{}
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return nil, fmt.Errorf("extra value: %w", protowire.ParseError(n))
		}
		data = data[n:]
		if num != 1 || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, data); n < 0 {
				return nil, fmt.Errorf("extra value: %w", protowire.ParseError(n))
			}
			data = data[n:]
			continue
		}
		s, n := protowire.ConsumeString(data)
		if n < 0 {
			return nil, fmt.Errorf("extra value: %w", protowire.ParseError(n))
		}
		out = append(out, s)
		data = data[n:]
	}
	return out, nil
}

// SelfSubjectReview asks who the caller is; the answer is in Status. It
// is created, never stored.
type SelfSubjectReview struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Status            SelfSubjectReviewStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
}

// SelfSubjectReviewStatus holds the caller's user.
type SelfSubjectReviewStatus struct {
	UserInfo UserInfo `json:"userInfo,omitempty" protobuf:"bytes,1,opt,name=userInfo"`
}

// DeepCopyObject implements runtime.Object.
func (x *SelfSubjectReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// GroupName is the API group of this package.
const GroupName = "authentication.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers the kinds of this package and the create-only
// resources selfsubjectreviews and tokenreviews. TokenRequest has no
// resource of its own: it is the body of serviceaccounts/token.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &SelfSubjectReview{}, &TokenReview{}, &TokenRequest{})
	if err := s.AddResource(runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("selfsubjectreviews"), Kind: "SelfSubjectReview",
		SingularName: "selfsubjectreview", Verbs: []string{"create"},
	}); err != nil {
		return err
	}
	return s.AddResource(runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("tokenreviews"), Kind: "TokenReview",
		SingularName: "tokenreview", Verbs: []string{"create"},
	})
}
