package v1

import (
	"fmt"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// CertificateSigningRequest asks a signer (spec.signerName) for a
// certificate for the PEM-encoded PKCS#10 request in spec.request. The
// API server records who asked (spec.username, groups, uid, extra); the
// spec cannot change afterwards.
type CertificateSigningRequest struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              CertificateSigningRequestSpec   `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	Status            CertificateSigningRequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// CertificateSigningRequestList is a list of CertificateSigningRequests.
type CertificateSigningRequestList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []CertificateSigningRequest `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// CertificateSigningRequestSpec is the request and who made it.
type CertificateSigningRequestSpec struct {
	// Request is the PEM-encoded "CERTIFICATE REQUEST" block.
	Request []byte `json:"request" protobuf:"bytes,1,opt,name=request"`
	// SignerName names the signer, as a qualified name
	// ("example.com/signer").
	SignerName string `json:"signerName" protobuf:"bytes,7,opt,name=signerName"`
	// ExpirationSeconds asks for a validity; at least 600.
	ExpirationSeconds *int32 `json:"expirationSeconds,omitempty" protobuf:"varint,8,opt,name=expirationSeconds"`
	// Usages are the key usages asked for.
	Usages []KeyUsage `json:"usages,omitempty" protobuf:"bytes,5,opt,name=usages"`
	// Username, UID, Groups and Extra are the requesting user's, set by
	// the API server on create: a client cannot choose them.
	Username string                `json:"username,omitempty" protobuf:"bytes,2,opt,name=username"`
	UID      string                `json:"uid,omitempty" protobuf:"bytes,3,opt,name=uid"`
	Groups   []string              `json:"groups,omitempty" protobuf:"bytes,4,rep,name=groups"`
	Extra    map[string]ExtraValue `json:"extra,omitempty" protobuf:"bytes,6,rep,name=extra"`
}

// The signers Kubernetes itself defines.
const (
	KubeAPIServerClientSignerName        = "kubernetes.io/kube-apiserver-client"
	KubeAPIServerClientKubeletSignerName = "kubernetes.io/kube-apiserver-client-kubelet"
	KubeletServingSignerName             = "kubernetes.io/kubelet-serving"
	// LegacyUnknownSignerName was the v1beta1 default; v1 refuses it.
	LegacyUnknownSignerName = "kubernetes.io/legacy-unknown"
)

// ExtraValue is the values of one extra attribute of the requesting user;
// see authenticationv1.ExtraValue for why it is a type of its own.
type ExtraValue []string

// String formats the values as a list.
func (v ExtraValue) String() string { return fmt.Sprintf("%v", []string(v)) }

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (v ExtraValue) AppendProtobuf(b []byte) []byte { return authenticationv1.AppendStrings(b, v) }

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler.
func (v *ExtraValue) UnmarshalProtobuf(data []byte) error {
	s, err := authenticationv1.ConsumeStrings(data)
	*v = s
	return err
}

// CertificateSigningRequestStatus is the request's decision and outcome.
type CertificateSigningRequestStatus struct {
	// Conditions are Approved or Denied (set through the approval
	// subresource) and Failed (set by the signer through status). Once
	// added they cannot be removed.
	Conditions []CertificateSigningRequestCondition `json:"conditions,omitempty" protobuf:"bytes,1,rep,name=conditions"`
	// Certificate is the issued certificate chain, PEM-encoded, set by the
	// signer through the status subresource.
	Certificate []byte `json:"certificate,omitempty" protobuf:"bytes,2,opt,name=certificate"`
}

// RequestConditionType names a condition of a request.
type RequestConditionType string

// The request conditions.
const (
	// CertificateApproved: an approver approved the request.
	CertificateApproved RequestConditionType = "Approved"
	// CertificateDenied: an approver denied it.
	CertificateDenied RequestConditionType = "Denied"
	// CertificateFailed: the signer could not issue it.
	CertificateFailed RequestConditionType = "Failed"
)

// CertificateSigningRequestCondition is one condition of a request.
// Approved, Denied and Failed may only be True.
type CertificateSigningRequestCondition struct {
	Type    RequestConditionType   `json:"type" protobuf:"bytes,1,opt,name=type,casttype=RequestConditionType"`
	Status  corev1.ConditionStatus `json:"status" protobuf:"bytes,6,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	Reason  string                 `json:"reason,omitempty" protobuf:"bytes,2,opt,name=reason"`
	Message string                 `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	// LastUpdateTime and LastTransitionTime default to the time of the
	// write that adds the condition or changes its status.
	LastUpdateTime     metav1.Time `json:"lastUpdateTime,omitempty" protobuf:"bytes,4,opt,name=lastUpdateTime"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,5,opt,name=lastTransitionTime"`
}

// KeyUsage is a key usage or extended key usage of a certificate.
type KeyUsage string

// The key usages, as x509 names them.
const (
	UsageSigning           KeyUsage = "signing"
	UsageDigitalSignature  KeyUsage = "digital signature"
	UsageContentCommitment KeyUsage = "content commitment"
	UsageKeyEncipherment   KeyUsage = "key encipherment"
	UsageKeyAgreement      KeyUsage = "key agreement"
	UsageDataEncipherment  KeyUsage = "data encipherment"
	UsageCertSign          KeyUsage = "cert sign"
	UsageCRLSign           KeyUsage = "crl sign"
	UsageEncipherOnly      KeyUsage = "encipher only"
	UsageDecipherOnly      KeyUsage = "decipher only"
	UsageAny               KeyUsage = "any"
	UsageServerAuth        KeyUsage = "server auth"
	UsageClientAuth        KeyUsage = "client auth"
	UsageCodeSigning       KeyUsage = "code signing"
	UsageEmailProtection   KeyUsage = "email protection"
	UsageSMIME             KeyUsage = "s/mime"
	UsageIPsecEndSystem    KeyUsage = "ipsec end system"
	UsageIPsecTunnel       KeyUsage = "ipsec tunnel"
	UsageIPsecUser         KeyUsage = "ipsec user"
	UsageTimestamping      KeyUsage = "timestamping"
	UsageOCSPSigning       KeyUsage = "ocsp signing"
	UsageMicrosoftSGC      KeyUsage = "microsoft sgc"
	UsageNetscapeSGC       KeyUsage = "netscape sgc"
)

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching these methods.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *CertificateSigningRequest) DeepCopy() *CertificateSigningRequest {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *CertificateSigningRequest) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *CertificateSigningRequestList) DeepCopyObject() runtime.Object {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}
