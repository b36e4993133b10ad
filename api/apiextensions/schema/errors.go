package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// causeTypeFieldValueTypeInvalid is the cause of a value of the wrong JSON
// type. It prints as "Invalid value", like FieldValueInvalid.
const causeTypeFieldValueTypeInvalid metav1.CauseType = "FieldValueTypeInvalid"

// badValue renders v as upstream's field errors do: numbers and booleans
// plainly, strings quoted, and anything else as JSON (null, objects,
// arrays). apierrors.FieldError prints its BadValue with %#v, which is
// the same for the first three and Go syntax for the rest, so those are
// wrapped in a jsonValue, whose GoString is its JSON.
func badValue(v any) any {
	switch v.(type) {
	case int64, int32, float64, float32, bool, string:
		return v
	}
	return jsonValue{v}
}

// jsonValue prints as the JSON of v under %#v.
type jsonValue struct{ v any }

// GoString implements fmt.GoStringer.
func (j jsonValue) GoString() string {
	b, err := json.Marshal(j.v)
	if err != nil {
		return fmt.Sprintf("%#v", j.v)
	}
	return string(b)
}

func invalid(p path, v any, detail string) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueInvalid, Field: p.String(), BadValue: badValue(v), Detail: detail}
}

func typeInvalid(p path, v any, detail string) *apierrors.FieldError {
	return &apierrors.FieldError{Type: causeTypeFieldValueTypeInvalid, Field: p.String(), BadValue: badValue(v), Detail: detail}
}

func required(p path, detail string) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueRequired, Field: p.String(), Detail: detail}
}

func forbidden(p path, detail string) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueForbidden, Field: p.String(), Detail: detail}
}

func duplicate(p path, v any) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueDuplicate, Field: p.String(), BadValue: badValue(v)}
}

// notSupported quotes each valid value with strconv.Quote, as upstream
// does (apierrors.NotSupported does not escape).
func notSupported(p path, v any, valid []string) *apierrors.FieldError {
	quoted := make([]string, len(valid))
	for i, s := range valid {
		quoted[i] = strconv.Quote(s)
	}
	detail := ""
	if len(valid) > 0 {
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueNotSupported, Field: p.String(), BadValue: badValue(v), Detail: detail}
}

// The cause types apierrors has no constructor for; the API server's
// Status carries them as they are.
const ()
