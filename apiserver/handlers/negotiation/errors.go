package negotiation

import (
	"strings"

	"github.com/minicp/minicp/api/apierrors"
)

// NewNotAcceptableError is the 406 of an Accept header none of accepted
// (media types) satisfies, with kube-apiserver's message.
func NewNotAcceptableError(accept string, accepted []string) *apierrors.StatusError {
	se := apierrors.NewNotAcceptable(accept)
	se.ErrStatus.Message = "only the following media types are accepted: " + strings.Join(accepted, ", ")
	return se
}

// NewUnsupportedMediaTypeError is the 415 of a body in a media type none
// of accepted is, with kube-apiserver's message.
func NewUnsupportedMediaTypeError(contentType string, accepted []string) *apierrors.StatusError {
	se := apierrors.NewUnsupportedMediaType(contentType)
	se.ErrStatus.Message = "the body of the request was in an unknown format - accepted media types include: " + strings.Join(accepted, ", ")
	return se
}
