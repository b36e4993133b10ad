package audit

import (
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// APIVersion is the apiVersion of every Event: audit.k8s.io/v1.
const APIVersion = "audit.k8s.io/v1"

// Level says how much of a request an Event records.
type Level string

// LevelMetadata records who did what to which object and the response
// code, but no request or response body: kube-apiserver's most common
// policy level, and the only one minicp records.
const LevelMetadata Level = "Metadata"

// Stage is the point of a request's life an Event was recorded at.
type Stage string

// StageResponseComplete is recorded once the response body is sent: for
// a watch, when the watch ends.
const StageResponseComplete Stage = "ResponseComplete"

// Event is one audited request, as kube-apiserver writes it to its audit
// log: a JSON object per line with these field names.
//
// Upstream: k8s.io/apiserver/pkg/apis/audit/v1 (Event).
type Event struct {
	metav1.TypeMeta `json:",inline"`
	Level           Level `json:"level"`
	// AuditID is unique per request; the response carries it in the
	// Audit-Id header, so a client can find its request in the log.
	AuditID string `json:"auditID"`
	Stage   Stage  `json:"stage"`
	// RequestURI is the path and query the client sent.
	RequestURI string `json:"requestURI"`
	// Verb is the Kubernetes verb (get, list, watch, create, ...) of a
	// resource request, the lowercase HTTP method of any other.
	Verb string `json:"verb"`
	// User is who the authenticator said the caller is.
	User      authenticationv1.UserInfo `json:"user"`
	SourceIPs []string                  `json:"sourceIPs,omitempty"`
	UserAgent string                    `json:"userAgent,omitempty"`
	// ObjectRef names the object of a resource request; nil for others.
	ObjectRef *ObjectReference `json:"objectRef,omitempty"`
	// ResponseStatus carries the response's HTTP code.
	ResponseStatus           *metav1.Status    `json:"responseStatus,omitempty"`
	RequestReceivedTimestamp metav1.MicroTime  `json:"requestReceivedTimestamp"`
	StageTimestamp           metav1.MicroTime  `json:"stageTimestamp"`
	Annotations              map[string]string `json:"annotations,omitempty"`
}

// ObjectReference names the object a request is about.
//
// Upstream: k8s.io/apiserver/pkg/apis/audit/v1 (ObjectReference).
type ObjectReference struct {
	Resource    string `json:"resource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
	APIGroup    string `json:"apiGroup,omitempty"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}
