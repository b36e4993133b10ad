package schema

import (
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The codes of kube-openapi's validation errors that decide how an error
// becomes a field error; the others all become "Invalid value".
//
// Upstream: k8s.io/kube-openapi/pkg/validation/errors (InvalidTypeCode, ...).
type errCode int

const (
	codePlain errCode = iota // not a *errors.Validation: reported at the root
	codeInvalidType
	codeRequired
	codeTooLong
	codeTooShort
	codePattern
	codeEnum
	codeMultipleOf
	codeMax
	codeMin
	codeUnique
	codeMaxItems
	codeMinItems
	codeNoAdditionalItems
	codeTooFewProperties
	codeTooManyProperties
	codeUnallowedProperty
	codeFailedAllPatternProperties
	codeMultipleOfMustBePositive
)

// verr is one kube-openapi validation error: name is the (dotted) path of
// the value inside the validated document, message the whole text.
type verr struct {
	code    errCode
	name    string
	value   any
	valid   any
	values  []any
	message string
}

// result is kube-openapi's Result: the errors, deduplicated by message,
// and MatchCount, which anyOf and oneOf use to pick the alternative whose
// errors to report (the one that got furthest).
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (Result).
type result struct {
	errs       []verr
	matchCount int
}

func (r *result) addErrors(errs ...verr) {
	for _, e := range errs {
		dup := false
		for _, have := range r.errs {
			if have.message == e.message {
				dup = true
				break
			}
		}
		if !dup {
			r.errs = append(r.errs, e)
		}
	}
}

func (r *result) merge(others ...*result) *result {
	for _, o := range others {
		if o != nil {
			r.addErrors(o.errs...)
			r.matchCount += o.matchCount
		}
	}
	return r
}

func (r *result) inc() { r.matchCount++ }

func (r *result) isValid() bool { return r == nil || len(r.errs) == 0 }

func errResult(e verr) *result { return &result{errs: []verr{e}} }

// The messages of kube-openapi's validation errors, all "in body".
//
// Upstream: k8s.io/kube-openapi/pkg/validation/errors/schema.go.
const in = "body"

func invalidTypeErr(name, typeName string, value string) verr {
	return verr{code: codeInvalidType, name: name, value: value,
		message: fmt.Sprintf("%s in %s must be of type %s: %q", name, in, typeName, value)}
}

func requiredErr(name string) verr {
	return verr{code: codeRequired, name: name, message: fmt.Sprintf("%s in %s is required", name, in)}
}

func plainErr(format string, args ...any) verr {
	return verr{code: codePlain, message: fmt.Sprintf(format, args...)}
}

// toFieldErrors turns a result into field errors under fldPath ("" for
// the root), as the API server reports them.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/validation (kubeOpenAPIResultToFieldErrors).
func (r *result) toFieldErrors(fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	for _, e := range r.errs {
		if e.code == codePlain {
			all = append(all, invalid(fldPath, "", e.message))
			continue
		}
		errPath := fldPath
		if e.name != "" && e.name != "." {
			errPath = errPath.child(strings.TrimPrefix(e.name, "."))
		}
		value := e.value
		if value == nil {
			value = ""
		}
		switch e.code {
		case codeRequired:
			all = append(all, required(errPath, ""))
		case codeEnum:
			values := make([]string, 0, len(e.values))
			for _, v := range e.values {
				if s, ok := v.(string); ok {
					values = append(values, s)
				} else {
					values = append(values, jsonValue{v}.GoString())
				}
			}
			all = append(all, notSupported(errPath, e.value, values))
		case codeTooLong:
			maxLen := int64(-1)
			if i, ok := e.valid.(int64); ok {
				maxLen = i
			}
			all = append(all, tooLong(errPath, maxLen))
		case codeMaxItems, codeTooManyProperties:
			actual, maxN := int64(-1), int64(-1)
			if i, ok := e.value.(int64); ok {
				actual = i
			}
			if i, ok := e.valid.(int64); ok {
				maxN = i
			}
			all = append(all, tooMany(errPath, actual, maxN))
		case codeInvalidType:
			all = append(all, typeInvalid(errPath, value, e.message))
		default:
			all = append(all, invalid(errPath, value, e.message))
		}
	}
	return all
}

// tooLong is upstream's field.TooLong, which says bytes even where runes
// were counted.
func tooLong(p path, maxLen int64) *apierrors.FieldError {
	msg := "value is too long"
	if maxLen >= 0 {
		unit := "bytes"
		if maxLen == 1 {
			unit = "byte"
		}
		msg = fmt.Sprintf("may not be more than %d %s", maxLen, unit)
	}
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueTooLong, Field: p.String(), BadValue: "<value omitted>", Detail: msg}
}

// tooMany is upstream's field.TooMany.
func tooMany(p path, actual, maxN int64) *apierrors.FieldError {
	msg := "has too many items"
	if maxN >= 0 {
		unit := "items"
		if maxN == 1 {
			unit = "item"
		}
		msg = fmt.Sprintf("must have at most %d %s", maxN, unit)
	}
	var bad any = actual
	if actual < 0 {
		bad = apierrors.OmitValue
	}
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueTooMany, Field: p.String(), BadValue: bad, Detail: msg}
}
