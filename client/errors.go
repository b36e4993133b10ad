package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// maxErrorBody bounds how much of an error response is read: a Status is
// a few hundred bytes, and a proxy's HTML error page need not be kept
// whole.
const maxErrorBody = 64 << 10

// maxErrorSnippet bounds how much of a body that is not a Status goes
// into the error message.
const maxErrorSnippet = 256

// errorFromResponse turns a non-2xx response into an *apierrors.StatusError:
// the Status the server sent when the body is one, or a Status made from
// the HTTP code when it is not (a proxy's error page, a bare text error),
// so apierrors.IsNotFound and its siblings classify both.
//
// Upstream: k8s.io/client-go/rest (Request.transformUnstructuredResponseError,
// newUnstructuredResponseError) and k8s.io/apimachinery/pkg/api/errors
// (NewGenericServerResponse).
func errorFromResponse(method, url string, code int, body []byte) error {
	var st metav1.Status
	if json.Unmarshal(body, &st) == nil && st.Kind == "Status" && st.Status != metav1.StatusSuccess {
		if st.Code == 0 {
			st.Code = int32(code)
		}
		return apierrors.FromStatus(st)
	}
	reason, msg := genericReason(code)
	snippet := strings.TrimSpace(string(body))
	if len(snippet) > maxErrorSnippet {
		snippet = snippet[:maxErrorSnippet] + "..."
	}
	if snippet != "" {
		msg = fmt.Sprintf("%s (%s %s): %s", msg, method, url, snippet)
	} else {
		msg = fmt.Sprintf("%s (%s %s)", msg, method, url)
	}
	return apierrors.FromStatus(metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     int32(code),
		Reason:   reason,
		Message:  msg,
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{
			Type: metav1.CauseTypeUnexpectedServerResponse, Message: snippet,
		}}},
	})
}

// genericReason is the reason and message client-go gives a response code
// that came without a Status.
func genericReason(code int) (metav1.StatusReason, string) {
	switch code {
	case http.StatusBadRequest:
		return metav1.StatusReasonBadRequest, "the server rejected our request for an unknown reason"
	case http.StatusUnauthorized:
		return metav1.StatusReasonUnauthorized, "the server has asked for the client to provide credentials"
	case http.StatusForbidden:
		return metav1.StatusReasonForbidden, "the server does not allow access to the requested resource"
	case http.StatusNotFound:
		return metav1.StatusReasonNotFound, "the server could not find the requested resource"
	case http.StatusMethodNotAllowed:
		return metav1.StatusReasonMethodNotAllowed, "the server does not allow this method on the requested resource"
	case http.StatusConflict:
		return metav1.StatusReasonConflict, "the server reported a conflict"
	case http.StatusGone:
		return metav1.StatusReasonGone, "the server reported the resource is gone"
	case http.StatusRequestEntityTooLarge:
		return metav1.StatusReasonRequestEntityTooLarge, "the server has rejected the request because it is too large"
	case http.StatusUnsupportedMediaType:
		return metav1.StatusReasonUnsupportedMediaType, "the server does not support the request's media type"
	case http.StatusUnprocessableEntity:
		return metav1.StatusReasonInvalid, "the server rejected our request due to an error in our request"
	case http.StatusTooManyRequests:
		return metav1.StatusReasonTooManyRequests, "the server has received too many requests and has asked us to try again later"
	case http.StatusServiceUnavailable:
		return metav1.StatusReasonServiceUnavailable, "the server is currently unable to handle the request"
	case http.StatusGatewayTimeout:
		return metav1.StatusReasonTimeout, "the server was unable to return a response in the time allotted"
	}
	if code >= 500 {
		return metav1.StatusReasonInternalError, fmt.Sprintf("an error on the server has prevented the request from succeeding (code %d)", code)
	}
	return metav1.StatusReasonUnknown, fmt.Sprintf("the server responded with the status code %d but did not return more information", code)
}
