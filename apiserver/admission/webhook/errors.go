package webhook

import (
	"errors"
	"fmt"
	"net/http"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/admission"
)

// callError is a failure to get a usable answer from a webhook: it could
// not be reached, timed out, or answered something that is not a valid
// AdmissionReview. The webhook's failurePolicy decides what it means: the
// request fails with a 500 InternalError wrapping it (Fail) or goes on
// without the webhook (Ignore). A webhook that answers and denies is not a
// callError.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ErrCallingWebhook).
type callError struct {
	webhookName string
	reason      error
}

func (e *callError) Error() string {
	return fmt.Sprintf("failed calling webhook %q: %v", e.webhookName, e.reason)
}

func (e *callError) Unwrap() error { return e.reason }

// deniedError is the Status of a request a webhook denied: the webhook's
// own Status (its code, reason and details kept) with the message prefixed
// by who denied it, or a 403 Forbidden when the webhook gave no code.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/errors (ToStatusErr).
func deniedError(a *admission.Attributes, webhookName string, result *metav1.Status) *apierrors.StatusError {
	var s metav1.Status
	if result != nil {
		s = *result
		s.Details = nil
		if result.Details != nil {
			d := *result.Details
			s.Details = &d
		}
	}
	name := a.Name
	if name == "" {
		name = "Unknown"
	}
	if s.Code == 0 {
		s.Code = http.StatusForbidden
	}
	if s.Status == "" {
		s.Status = metav1.StatusFailure
	}
	deniedBy := fmt.Sprintf("admission webhook %q denied the request", webhookName)
	switch {
	case s.Message != "":
		s.Message = deniedBy + ": " + s.Message
	case s.Reason != "":
		s.Message = deniedBy + ": " + string(s.Reason)
	default:
		s.Message = deniedBy + " without explanation"
	}
	internal := s.Code == http.StatusInternalServerError
	if s.Details == nil {
		if internal {
			s.Details = &metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: s.Message}}}
		} else {
			// Kind holds the resource, as apierrors.NewForbidden's does.
			s.Details = &metav1.StatusDetails{Group: a.Resource.Group, Kind: a.Resource.Resource, Name: name}
		}
	}
	prefix := fmt.Sprintf("%s %q is forbidden", a.Resource.GroupResource(), name)
	if internal {
		prefix = "Internal error occurred"
	}
	s.Message = prefix + ": " + s.Message
	if s.Reason == "" {
		s.Reason = metav1.StatusReasonForbidden
		if internal {
			s.Reason = metav1.StatusReasonInternalError
		}
	}
	return apierrors.FromStatus(s)
}

// dryRunUnsupportedError is the 400 of a dry-run request that matches a
// webhook which may have side effects. It is not subject to the failure
// policy: the webhook did not fail, the request cannot be checked without
// side effects, and skipping the check would admit it unchecked.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/errors (NewDryRunUnsupportedErr).
func dryRunUnsupportedError(webhookName string) *apierrors.StatusError {
	return apierrors.NewBadRequest(fmt.Sprintf("admission webhook %q does not support dry run", webhookName))
}

// checkDryRun refuses to call a webhook that may have side effects for a
// dry-run request.
func checkDryRun(h *hook) error {
	switch {
	case h.sideEffects == nil:
		// Upstream's wording, capital included.
		return &callError{webhookName: h.name, reason: errors.New("Webhook SideEffects is nil")}
	case *h.sideEffects != admissionregistrationv1.SideEffectClassNone && *h.sideEffects != admissionregistrationv1.SideEffectClassNoneOnDryRun:
		return dryRunUnsupportedError(h.name)
	}
	return nil
}
