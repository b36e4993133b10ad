package v1

import (
	"encoding/json"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// ConversionReview is the body of a conversion webhook call in both
// directions: the API server sends Request, the webhook answers with
// Response (and the same apiVersion and kind). It is never stored nor
// served, so it has no resource.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1 (ConversionReview).
type ConversionReview struct {
	metav1.TypeMeta `json:",inline"`
	Request         *ConversionRequest  `json:"request,omitempty" protobuf:"bytes,1,opt,name=request"`
	Response        *ConversionResponse `json:"response,omitempty" protobuf:"bytes,2,opt,name=response"`
}

// DeepCopyObject implements runtime.Object.
func (r *ConversionReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(r) }

// ConversionRequest asks the webhook to convert Objects to
// DesiredAPIVersion. The objects may be of several versions, but never
// already of DesiredAPIVersion.
type ConversionRequest struct {
	// UID identifies this call; the response must echo it.
	UID string `json:"uid" protobuf:"bytes,1,name=uid"`
	// DesiredAPIVersion is "<group>/<version>".
	DesiredAPIVersion string `json:"desiredAPIVersion" protobuf:"bytes,2,name=desiredAPIVersion"`
	// Objects are whole custom resources as JSON (upstream's
	// runtime.RawExtension, which writes its raw bytes).
	Objects []json.RawMessage `json:"objects" protobuf:"bytes,3,rep,name=objects"`
}

// ConversionResponse is the webhook's answer.
type ConversionResponse struct {
	// UID is the request's UID.
	UID string `json:"uid" protobuf:"bytes,1,name=uid"`
	// ConvertedObjects are the request's objects at the desired version,
	// in the request's order. Only labels and annotations of their
	// metadata may differ from the originals'; the rest of it is restored.
	ConvertedObjects []json.RawMessage `json:"convertedObjects" protobuf:"bytes,2,rep,name=convertedObjects"`
	// Result is Status "Success", or a failure whose message is the
	// reason the conversion failed.
	Result metav1.Status `json:"result" protobuf:"bytes,3,name=result"`
}

var _ runtime.Object = (*ConversionReview)(nil)
