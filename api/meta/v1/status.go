package v1

// Status is the result of an operation that does not return an object:
// every error, and the success of some deletes.
type Status struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`
	// Status is "Success" or "Failure".
	Status  string         `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
	Message string         `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	Reason  StatusReason   `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason,casttype=StatusReason"`
	Details *StatusDetails `json:"details,omitempty" protobuf:"bytes,5,opt,name=details"`
	Code    int32          `json:"code,omitempty" protobuf:"varint,6,opt,name=code"`
}

// The values of Status.Status.
const (
	StatusSuccess = "Success"
	StatusFailure = "Failure"
)

// StatusDetails names the object an error is about and, for Invalid, the
// fields at fault.
type StatusDetails struct {
	Name              string        `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Group             string        `json:"group,omitempty" protobuf:"bytes,2,opt,name=group"`
	Kind              string        `json:"kind,omitempty" protobuf:"bytes,3,opt,name=kind"`
	UID               string        `json:"uid,omitempty" protobuf:"bytes,6,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`
	Causes            []StatusCause `json:"causes,omitempty" protobuf:"bytes,4,rep,name=causes"`
	RetryAfterSeconds int32         `json:"retryAfterSeconds,omitempty" protobuf:"varint,5,opt,name=retryAfterSeconds"`
}

// StatusCause is one reason an operation failed; Field is a JSON path such
// as "spec.containers[0].image".
type StatusCause struct {
	Type    CauseType `json:"reason,omitempty" protobuf:"bytes,1,opt,name=reason,casttype=CauseType"`
	Message string    `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
	Field   string    `json:"field,omitempty" protobuf:"bytes,3,opt,name=field"`
}

// StatusReason is the machine-readable reason of a failure.
type StatusReason string

// The reasons minicp reports, spelled as Kubernetes spells them.
const (
	StatusReasonUnknown               StatusReason = ""
	StatusReasonUnauthorized          StatusReason = "Unauthorized"
	StatusReasonForbidden             StatusReason = "Forbidden"
	StatusReasonNotFound              StatusReason = "NotFound"
	StatusReasonAlreadyExists         StatusReason = "AlreadyExists"
	StatusReasonConflict              StatusReason = "Conflict"
	StatusReasonGone                  StatusReason = "Gone"
	StatusReasonInvalid               StatusReason = "Invalid"
	StatusReasonServerTimeout         StatusReason = "ServerTimeout"
	StatusReasonTimeout               StatusReason = "Timeout"
	StatusReasonTooManyRequests       StatusReason = "TooManyRequests"
	StatusReasonBadRequest            StatusReason = "BadRequest"
	StatusReasonMethodNotAllowed      StatusReason = "MethodNotAllowed"
	StatusReasonNotAcceptable         StatusReason = "NotAcceptable"
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge"
	StatusReasonUnsupportedMediaType  StatusReason = "UnsupportedMediaType"
	StatusReasonInternalError         StatusReason = "InternalError"
	StatusReasonExpired               StatusReason = "Expired"
	StatusReasonServiceUnavailable    StatusReason = "ServiceUnavailable"
)

// CauseType is the machine-readable kind of a StatusCause.
type CauseType string

// The cause types field validation reports.
const (
	CauseTypeFieldValueNotFound       CauseType = "FieldValueNotFound"
	CauseTypeFieldValueRequired       CauseType = "FieldValueRequired"
	CauseTypeFieldValueDuplicate      CauseType = "FieldValueDuplicate"
	CauseTypeFieldValueInvalid        CauseType = "FieldValueInvalid"
	CauseTypeFieldValueNotSupported   CauseType = "FieldValueNotSupported"
	CauseTypeFieldValueForbidden      CauseType = "FieldValueForbidden"
	CauseTypeFieldValueTooLong        CauseType = "FieldValueTooLong"
	CauseTypeFieldValueTooMany        CauseType = "FieldValueTooMany"
	CauseTypeUnexpectedServerResponse CauseType = "UnexpectedServerResponse"
	CauseTypeFieldManagerConflict     CauseType = "FieldManagerConflict"
)
