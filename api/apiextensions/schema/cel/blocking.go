package cel

import (
	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// BlockingError returns the error to report instead of running the rules
// when schema validation found a value of the wrong type, a missing
// required field or an unsupported, too long or too large value: rules
// written for the declared types would only fail in confusing ways. It
// returns nil when the rules should run.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource (hasBlockingErr).
func BlockingError(errs apierrors.FieldErrors) *apierrors.FieldError {
	for _, e := range errs {
		switch e.Type {
		case metav1.CauseTypeFieldValueNotSupported, metav1.CauseTypeFieldValueRequired, metav1.CauseTypeFieldValueTooLong,
			"FieldValueTooMany", "FieldValueTypeInvalid":
			return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueInvalid, Field: "<nil>", BadValue: null{},
				Detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"}
		}
	}
	return nil
}

// null prints as JSON null under %#v, as upstream prints a nil bad value.
type null struct{}

// GoString implements fmt.GoStringer.
func (null) GoString() string { return "null" }
