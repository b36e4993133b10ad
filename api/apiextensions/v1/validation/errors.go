package validation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The constructors render bad values as upstream's field errors do:
// numbers, booleans and strings as they are, anything else (pointers,
// slices, structs, null) as JSON. apierrors.FieldError prints BadValue
// with %#v, so those are wrapped in a jsonValue whose GoString is JSON.

type jsonValue struct{ v any }

// GoString implements fmt.GoStringer.
func (j jsonValue) GoString() string {
	b, err := json.Marshal(j.v)
	if err != nil {
		return fmt.Sprintf("%#v", j.v)
	}
	return string(b)
}

func badValue(v any) any {
	switch v.(type) {
	case int64, int32, float64, float32, bool, string:
		return v
	}
	return jsonValue{v}
}

func invalid(p path, v any, detail string) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueInvalid, Field: p.String(), BadValue: badValue(v), Detail: detail}
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

// tooMany is upstream's field.TooMany; apierrors prints its type as
// "Invalid value" where upstream prints "Too many".
func tooMany(p path, actual, maxN int) *apierrors.FieldError {
	unit := "items"
	if maxN == 1 {
		unit = "item"
	}
	return &apierrors.FieldError{Type: "FieldValueTooMany", Field: p.String(), BadValue: int64(actual),
		Detail: fmt.Sprintf("must have at most %d %s", maxN, unit)}
}

// path is a field path as upstream's field.Path prints it.
type path struct{ s string }

func newPath(names ...string) path { return path{}.child(names...) }

func (p path) child(names ...string) path {
	for _, n := range names {
		if p.s == "" {
			p.s = n
		} else {
			p.s += "." + n
		}
	}
	return p
}

func (p path) key(k string) path { return path{p.s + "[" + k + "]"} }

func (p path) index(i int) path { return p.key(strconv.Itoa(i)) }

func (p path) String() string {
	if p.s == "" {
		return "<nil>"
	}
	return p.s
}
