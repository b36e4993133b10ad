package v1

import (
	"encoding/json"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "admission.k8s.io"

// SchemeGroupVersion is the group/version of AdmissionReview.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AdmissionReview is the body of a webhook call in both directions: the
// API server sends Request, the webhook answers with Response (and the
// same apiVersion and kind).
type AdmissionReview struct {
	metav1.TypeMeta `json:",inline"`
	Request         *AdmissionRequest  `json:"request,omitempty" protobuf:"bytes,1,opt,name=request"`
	Response        *AdmissionResponse `json:"response,omitempty" protobuf:"bytes,2,opt,name=response"`
}

// DeepCopyObject implements runtime.Object.
func (r *AdmissionReview) DeepCopyObject() runtime.Object { return runtime.DeepCopy(r) }

// AdmissionRequest describes the request being admitted. Kind, Resource
// and SubResource are what the webhook's rule matched (another version of
// the resource under matchPolicy Equivalent); the Request* fields are what
// the client sent.
type AdmissionRequest struct {
	// UID identifies this call; the response must echo it.
	UID                string                `json:"uid" protobuf:"bytes,1,opt,name=uid"`
	Kind               GroupVersionKind      `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	Resource           GroupVersionResource  `json:"resource" protobuf:"bytes,3,opt,name=resource"`
	SubResource        string                `json:"subResource,omitempty" protobuf:"bytes,4,opt,name=subResource"`
	RequestKind        *GroupVersionKind     `json:"requestKind,omitempty" protobuf:"bytes,13,opt,name=requestKind"`
	RequestResource    *GroupVersionResource `json:"requestResource,omitempty" protobuf:"bytes,14,opt,name=requestResource"`
	RequestSubResource string                `json:"requestSubResource,omitempty" protobuf:"bytes,15,opt,name=requestSubResource"`
	// Name is empty on a create whose object has only a generateName.
	Name      string    `json:"name,omitempty" protobuf:"bytes,5,opt,name=name"`
	Namespace string    `json:"namespace,omitempty" protobuf:"bytes,6,opt,name=namespace"`
	Operation Operation `json:"operation" protobuf:"bytes,7,opt,name=operation"`
	UserInfo  UserInfo  `json:"userInfo" protobuf:"bytes,8,opt,name=userInfo"`
	// Object is the new object (null on DELETE), OldObject the stored one
	// (null on CREATE), Options the CreateOptions, UpdateOptions or
	// DeleteOptions. Their tags lack upstream's omitempty on purpose:
	// upstream's RawExtension is a struct, which encoding/json never
	// omits, so an absent one is written as null; a nil json.RawMessage
	// without omitempty is written the same way.
	Object    json.RawMessage `json:"object" protobuf:"bytes,9,opt,name=object"`
	OldObject json.RawMessage `json:"oldObject" protobuf:"bytes,10,opt,name=oldObject"`
	DryRun    *bool           `json:"dryRun,omitempty" protobuf:"varint,11,opt,name=dryRun"`
	Options   json.RawMessage `json:"options" protobuf:"bytes,12,opt,name=options"`
}

// AdmissionResponse is the webhook's answer.
type AdmissionResponse struct {
	// UID is the request's UID.
	UID     string `json:"uid" protobuf:"bytes,1,opt,name=uid"`
	Allowed bool   `json:"allowed" protobuf:"varint,2,opt,name=allowed"`
	// Result says why a request is denied: its code (403 when unset) and
	// message reach the client.
	Result *metav1.Status `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
	// Patch is an RFC 6902 JSON patch of the object (base64 in JSON), from
	// a mutating webhook only, with PatchType set.
	Patch     []byte     `json:"patch,omitempty" protobuf:"bytes,4,opt,name=patch"`
	PatchType *PatchType `json:"patchType,omitempty" protobuf:"bytes,5,opt,name=patchType"`
	// AuditAnnotations are added to the request's audit event, each key
	// prefixed with the webhook's name.
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty" protobuf:"bytes,6,opt,name=auditAnnotations"`
	// Warnings are shown to the client (Warning headers).
	Warnings []string `json:"warnings,omitempty" protobuf:"bytes,7,rep,name=warnings"`
}

// PatchType is the format of AdmissionResponse.Patch.
type PatchType string

// PatchTypeJSONPatch is the only patch type: RFC 6902.
const PatchTypeJSONPatch PatchType = "JSONPatch"

// Operation is what the request does; the values are the admission
// operations' own spellings.
type Operation string

// The operations of a request.
const (
	Create  Operation = "CREATE"
	Update  Operation = "UPDATE"
	Delete  Operation = "DELETE"
	Connect Operation = "CONNECT"
)

// GroupVersionKind is a kind as the wire spells it ({"group", "version",
// "kind"}); runtime.GroupVersionKind is the untagged in-memory twin.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (GroupVersionKind).
type GroupVersionKind struct {
	Group   string `json:"group" protobuf:"bytes,1,opt,name=group"`
	Version string `json:"version" protobuf:"bytes,2,opt,name=version"`
	Kind    string `json:"kind" protobuf:"bytes,3,opt,name=kind"`
}

// GroupVersionResource is a resource as the wire spells it.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (GroupVersionResource).
type GroupVersionResource struct {
	Group    string `json:"group" protobuf:"bytes,1,opt,name=group"`
	Version  string `json:"version" protobuf:"bytes,2,opt,name=version"`
	Resource string `json:"resource" protobuf:"bytes,3,opt,name=resource"`
}

// UserInfo is who sent the request, as the authenticator saw them.
//
// Upstream: k8s.io/api/authentication/v1 (UserInfo).
type UserInfo struct {
	Username string   `json:"username,omitempty" protobuf:"bytes,1,opt,name=username"`
	UID      string   `json:"uid,omitempty" protobuf:"bytes,2,opt,name=uid"`
	Groups   []string `json:"groups,omitempty" protobuf:"bytes,3,rep,name=groups"`
	// Extra is what the authenticator adds (scopes, a node name...).
	Extra map[string]ExtraValue `json:"extra,omitempty" protobuf:"bytes,4,rep,name=extra"`
}

// ExtraValue is the values of one UserInfo.Extra key.
type ExtraValue []string
