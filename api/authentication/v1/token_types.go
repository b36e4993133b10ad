package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// TokenRequest asks for a token of a ServiceAccount: the body of a POST
// to serviceaccounts/{name}/token. The token is in Status; nothing is
// stored.
type TokenRequest struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              TokenRequestSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            TokenRequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// TokenRequestSpec is what the token is for.
type TokenRequestSpec struct {
	// Audiences the token is for; empty means the API server's own.
	Audiences []string `json:"audiences" protobuf:"bytes,1,rep,name=audiences"`
	// ExpirationSeconds is the token's requested lifetime. Defaults to an
	// hour; at least ten minutes.
	ExpirationSeconds *int64 `json:"expirationSeconds" protobuf:"varint,4,opt,name=expirationSeconds"`
	// BoundObjectRef ties the token to an object (a Pod, Secret or Node):
	// the token stops working once the object is gone.
	BoundObjectRef *BoundObjectReference `json:"boundObjectRef" protobuf:"bytes,3,opt,name=boundObjectRef"`
}

// BoundObjectReference names the object a token is bound to.
type BoundObjectReference struct {
	Kind       string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,2,opt,name=apiVersion"`
	Name       string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	UID        string `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uID,casttype=k8s.io/apimachinery/pkg/types.UID"`
}

// TokenRequestStatus holds the issued token.
type TokenRequestStatus struct {
	Token               string      `json:"token" datapolicy:"token" protobuf:"bytes,1,opt,name=token"`
	ExpirationTimestamp metav1.Time `json:"expirationTimestamp" protobuf:"bytes,2,opt,name=expirationTimestamp"`
}

// DeepCopyObject implements runtime.Object.
func (x *TokenRequest) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }

// TokenReview asks the API server whether a token is valid and whose it
// is: how a webhook or proxy authenticates its callers with the
// cluster's tokens. The answer is in Status; nothing is stored.
type TokenReview struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              TokenReviewSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            TokenReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// TokenReviewSpec is the token to review and the audiences it must be
// valid for (empty means the API server's own).
type TokenReviewSpec struct {
	Token     string   `json:"token,omitempty" datapolicy:"token" protobuf:"bytes,1,opt,name=token"`
	Audiences []string `json:"audiences,omitempty" protobuf:"bytes,2,rep,name=audiences"`
}

// TokenReviewStatus is the verdict: whether the token authenticates,
// as whom, for which of the audiences, or why not.
type TokenReviewStatus struct {
	Authenticated bool     `json:"authenticated,omitempty" protobuf:"varint,1,opt,name=authenticated"`
	User          UserInfo `json:"user,omitempty" protobuf:"bytes,2,opt,name=user"`
	Audiences     []string `json:"audiences,omitempty" protobuf:"bytes,4,rep,name=audiences"`
	Error         string   `json:"error,omitempty" protobuf:"bytes,3,opt,name=error"`
}

// DeepCopyObject implements runtime.Object.
func (x *TokenReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(x) }
