package apierrors

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// StatusError is an error that carries the Status a client receives.
type StatusError struct {
	ErrStatus metav1.Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status returns the wire form, with kind and apiVersion set.
func (e *StatusError) Status() metav1.Status {
	s := e.ErrStatus
	s.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	if s.Status == "" {
		s.Status = metav1.StatusFailure
	}
	return s
}

// FromStatus wraps a Status decoded from a response.
func FromStatus(s metav1.Status) *StatusError { return &StatusError{ErrStatus: s} }

func newStatus(code int32, reason metav1.StatusReason, gr runtime.GroupResource, name, msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    code,
		Reason:  reason,
		Message: msg,
		Details: &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name},
	}}
}

// NewNotFound is 404: `pods "x" not found`.
func NewNotFound(gr runtime.GroupResource, name string) *StatusError {
	return newStatus(http.StatusNotFound, metav1.StatusReasonNotFound, gr, name,
		fmt.Sprintf("%s %q not found", gr, name))
}

// NewAlreadyExists is 409: `pods "x" already exists`.
func NewAlreadyExists(gr runtime.GroupResource, name string) *StatusError {
	return newStatus(http.StatusConflict, metav1.StatusReasonAlreadyExists, gr, name,
		fmt.Sprintf("%s %q already exists", gr, name))
}

// NewConflict is 409 for a write that lost an optimistic-concurrency race.
func NewConflict(gr runtime.GroupResource, name string, err error) *StatusError {
	return newStatus(http.StatusConflict, metav1.StatusReasonConflict, gr, name,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %v", gr, name, err))
}

// NewApplyConflict is the 409 of a server-side apply that would change
// fields other managers own: one FieldManagerConflict cause per field.
// It names no object, as kube-apiserver's does not.
func NewApplyConflict(causes []metav1.StatusCause, message string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     http.StatusConflict,
		Reason:   metav1.StatusReasonConflict,
		Details:  &metav1.StatusDetails{Causes: causes},
		Message:  message,
	}}
}

// NewInvalid is 422 with one cause per field error.
func NewInvalid(gk runtime.GroupVersionKind, name string, errs FieldErrors) *StatusError {
	causes := make([]metav1.StatusCause, 0, len(errs))
	for _, fe := range errs {
		causes = append(causes, metav1.StatusCause{Type: fe.Type, Message: fe.Error(), Field: fe.Field})
	}
	kind := gk.Kind
	if gk.Group != "" {
		kind += "." + gk.Group
	}
	return &StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusUnprocessableEntity,
		Reason:  metav1.StatusReasonInvalid,
		Message: fmt.Sprintf("%s %q is invalid: %s", kind, name, errs.Error()),
		Details: &metav1.StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name, Causes: causes},
	}}
}

// NewBadRequest is 400 for a request that cannot be understood.
func NewBadRequest(msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusBadRequest, Reason: metav1.StatusReasonBadRequest, Message: msg,
	}}
}

// NewResourceExpired is 410 Expired: the requested resourceVersion is older
// than what is kept, so the client must relist.
func NewResourceExpired(msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: msg,
	}}
}

// NewGone is 410 Gone.
func NewGone(msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonGone, Message: msg,
	}}
}

// NewUnauthorized is 401: the request carried no valid credentials.
func NewUnauthorized(msg string) *StatusError {
	if msg == "" {
		msg = "Unauthorized"
	}
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusUnauthorized, Reason: metav1.StatusReasonUnauthorized, Message: msg,
	}}
}

// NewForbidden is 403: the user may not do this, or admission refused it.
func NewForbidden(gr runtime.GroupResource, name string, err error) *StatusError {
	var msg string
	switch {
	case gr == runtime.GroupResource{}:
		// A request for no resource (a path such as /healthz).
		msg = fmt.Sprintf("forbidden: %v", err)
	case name == "":
		msg = fmt.Sprintf("%s is forbidden: %v", gr, err)
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %v", gr, name, err)
	}
	return newStatus(http.StatusForbidden, metav1.StatusReasonForbidden, gr, name, msg)
}

// NewMethodNotSupported is 405: the resource does not serve this verb.
func NewMethodNotSupported(gr runtime.GroupResource, verb string) *StatusError {
	return newStatus(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed, gr, "",
		fmt.Sprintf("%s is not supported on resources of kind %q", verb, gr))
}

// NewUnsupportedMediaType is 415: a body or patch type the server cannot read.
func NewUnsupportedMediaType(contentType string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusUnsupportedMediaType, Reason: metav1.StatusReasonUnsupportedMediaType,
		Message: fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml; got %q", contentType),
	}}
}

// NewNotAcceptable is 406: no representation matches the Accept header.
func NewNotAcceptable(accept string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusNotAcceptable, Reason: metav1.StatusReasonNotAcceptable,
		Message: fmt.Sprintf("only the following media types are accepted: application/json, application/yaml; got %q", accept),
	}}
}

// NewRequestEntityTooLarge is 413.
func NewRequestEntityTooLarge(msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusRequestEntityTooLarge, Reason: metav1.StatusReasonRequestEntityTooLarge,
		Message: "Request entity too large: " + msg,
	}}
}

// NewTooManyRequests is 429 with a Retry-After hint.
func NewTooManyRequests(msg string, retryAfterSeconds int) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusTooManyRequests, Reason: metav1.StatusReasonTooManyRequests,
		Message: "Too many requests: " + msg, Details: &metav1.StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)},
	}}
}

// NewServiceUnavailable is 503: the server cannot serve this yet.
func NewServiceUnavailable(msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusServiceUnavailable, Reason: metav1.StatusReasonServiceUnavailable, Message: msg,
	}}
}

// NewTimeoutError is 504 for a request the server gave up on.
func NewTimeoutError(msg string) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusGatewayTimeout, Reason: metav1.StatusReasonTimeout, Message: msg,
	}}
}

// NewInternalError is 500. Use it only for server faults: bad input never
// yields a 500.
func NewInternalError(err error) *StatusError {
	return &StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Reason: metav1.StatusReasonInternalError,
		Message: fmt.Sprintf("Internal error occurred: %v", err),
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: err.Error()}}},
	}}
}

// ReasonForError returns the reason of a StatusError anywhere in err's
// chain, or StatusReasonUnknown.
func ReasonForError(err error) metav1.StatusReason {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Reason
	}
	return metav1.StatusReasonUnknown
}

// CodeForError returns the HTTP code of a StatusError in err's chain, or 0.
func CodeForError(err error) int32 {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Code
	}
	return 0
}

// HasStatusCause reports whether err has a StatusError in its chain with
// a cause of type t, such as the NamespaceTerminating cause of a create
// refused in a namespace being deleted.
//
// Upstream: k8s.io/apimachinery/pkg/api/errors (HasStatusCause).
func HasStatusCause(err error, t metav1.CauseType) bool {
	var se *StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}

// IsNotFound reports a 404 NotFound.
func IsNotFound(err error) bool { return ReasonForError(err) == metav1.StatusReasonNotFound }

// IsAlreadyExists reports a 409 AlreadyExists.
func IsAlreadyExists(err error) bool { return ReasonForError(err) == metav1.StatusReasonAlreadyExists }

// IsConflict reports a 409 Conflict (a stale resourceVersion).
func IsConflict(err error) bool { return ReasonForError(err) == metav1.StatusReasonConflict }

// IsInvalid reports a 422 Invalid.
func IsInvalid(err error) bool { return ReasonForError(err) == metav1.StatusReasonInvalid }

// IsBadRequest reports a 400 BadRequest.
func IsBadRequest(err error) bool { return ReasonForError(err) == metav1.StatusReasonBadRequest }

// IsUnauthorized reports a 401.
func IsUnauthorized(err error) bool { return ReasonForError(err) == metav1.StatusReasonUnauthorized }

// IsForbidden reports a 403.
func IsForbidden(err error) bool { return ReasonForError(err) == metav1.StatusReasonForbidden }

// IsMethodNotSupported reports a 405.
func IsMethodNotSupported(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonMethodNotAllowed
}

// IsUnsupportedMediaType reports a 415.
func IsUnsupportedMediaType(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonUnsupportedMediaType
}

// IsTooManyRequests reports a 429.
func IsTooManyRequests(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonTooManyRequests
}

// IsRequestEntityTooLarge reports a 413.
func IsRequestEntityTooLarge(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonRequestEntityTooLarge
}

// IsResourceExpired reports a 410 Expired.
func IsResourceExpired(err error) bool { return ReasonForError(err) == metav1.StatusReasonExpired }

// IsGone reports any 410: Gone or Expired, both of which mean "relist".
func IsGone(err error) bool { return CodeForError(err) == http.StatusGone }

// IsInternalError reports a 500.
func IsInternalError(err error) bool { return ReasonForError(err) == metav1.StatusReasonInternalError }

// FieldError is one problem with one field, reported as a StatusCause.
type FieldError struct {
	Type   metav1.CauseType
	Field  string
	Detail string
	// BadValue is shown in the message when set.
	BadValue any
}

// OmitValue, as a FieldError's BadValue, leaves the value out of the
// message: upstream omits large values (an object a CEL rule rejected).
//
// Upstream: k8s.io/apimachinery/pkg/util/validation/field (OmitValueType).
var OmitValue = omitValue{}

type omitValue struct{}

func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	b.WriteString(": ")
	valued := func(label string) {
		b.WriteString(label)
		if e.BadValue != OmitValue {
			fmt.Fprintf(&b, ": %#v", e.BadValue)
		}
	}
	switch e.Type {
	case metav1.CauseTypeFieldValueRequired:
		b.WriteString("Required value")
	case metav1.CauseTypeFieldValueForbidden:
		b.WriteString("Forbidden")
	case metav1.CauseTypeFieldValueNotSupported:
		valued("Unsupported value")
	case metav1.CauseTypeFieldValueDuplicate:
		valued("Duplicate value")
	case metav1.CauseTypeFieldValueTooLong:
		b.WriteString("Too long")
	case metav1.CauseTypeFieldValueTooMany:
		valued("Too many")
	default:
		valued("Invalid value")
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// FieldErrors collects the field errors of one object.
type FieldErrors []*FieldError

func (l FieldErrors) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Required reports a missing field.
func Required(field, detail string) *FieldError {
	return &FieldError{Type: metav1.CauseTypeFieldValueRequired, Field: field, Detail: detail}
}

// Invalid reports a field whose value is wrong.
func Invalid(field string, value any, detail string) *FieldError {
	return &FieldError{Type: metav1.CauseTypeFieldValueInvalid, Field: field, BadValue: value, Detail: detail}
}

// NotSupported reports a value outside an enumeration.
func NotSupported(field string, value any, valid []string) *FieldError {
	detail := ""
	if len(valid) > 0 {
		detail = "supported values: \"" + strings.Join(valid, "\", \"") + "\""
	}
	return &FieldError{Type: metav1.CauseTypeFieldValueNotSupported, Field: field, BadValue: value, Detail: detail}
}

// Forbidden reports a field that may not be set or changed.
func Forbidden(field, detail string) *FieldError {
	return &FieldError{Type: metav1.CauseTypeFieldValueForbidden, Field: field, Detail: detail}
}

// Duplicate reports a value that must be unique.
func Duplicate(field string, value any) *FieldError {
	return &FieldError{Type: metav1.CauseTypeFieldValueDuplicate, Field: field, BadValue: value}
}

// TooMany reports a list or map with more entries than allowed.
func TooMany(field string, actual, maxN int) *FieldError {
	return &FieldError{Type: metav1.CauseTypeFieldValueTooMany, Field: field, BadValue: actual,
		Detail: fmt.Sprintf("must have at most %d items", maxN)}
}

// TooLong reports a value over its length limit.
func TooLong(field string, value any, maxLen int) *FieldError {
	return &FieldError{Type: metav1.CauseTypeFieldValueTooLong, Field: field, BadValue: value,
		Detail: fmt.Sprintf("must have at most %d bytes", maxLen)}
}
