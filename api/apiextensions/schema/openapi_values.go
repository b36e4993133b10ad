package schema

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func itoa(i int) string { return strconv.Itoa(i) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// validateString checks maxLength, minLength and pattern, stopping at the
// first failure. Lengths count runes.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (stringValidator.Validate).
func (v *vschema) validateString(name string, val any) *result {
	data, ok := val.(string)
	if !ok {
		// A string kind of another type (json.Number); kube-openapi
		// reports it as not a string.
		return errResult(verr{code: codeInvalidType, name: name, value: val,
			message: sprintf("%s in %s must be of type %s", name, in, "string")})
	}
	runes := int64(utf8.RuneCountInString(data))
	if v.maxLength != nil && runes > *v.maxLength {
		return errResult(verr{code: codeTooLong, name: name, value: data, valid: *v.maxLength,
			message: sprintf("%s in %s should be at most %d chars long", name, in, *v.maxLength)})
	}
	if v.minLength != nil && runes < *v.minLength {
		return errResult(verr{code: codeTooShort, name: name, value: data, valid: *v.minLength,
			message: sprintf("%s in %s should be at least %d chars long", name, in, *v.minLength)})
	}
	if v.pattern != "" {
		pattern := v.pattern
		if v.patternErr != nil {
			pattern = fmt.Sprintf("%s, but pattern is invalid: %s", v.pattern, v.patternErr.Error())
		}
		if v.patternErr != nil || !v.patternRe.MatchString(data) {
			return errResult(verr{code: codePattern, name: name, value: data,
				message: sprintf("%s in %s should match '%s'", name, in, pattern)})
		}
	}
	return nil
}

// validateFormat checks a string against its (known) format.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (formatValidator.Validate, FormatOf).
func (v *vschema) validateFormat(name, data string) *result {
	if !validFormat(v.format, data) {
		return errResult(invalidTypeErr(name, v.format, data))
	}
	return nil
}

// validateNumber checks multipleOf, minimum and maximum, and that the
// value (and each bound) fits the type's format. Integers are compared
// with bounds truncated to integers, as upstream compares them.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (numberValidator.Validate).
func (v *vschema) validateNumber(name string, val any) *result {
	typeName, format := "", ""
	if len(v.types) == 1 {
		switch v.types[0] {
		case "integer":
			typeName = "integer"
			if v.format == "int32" || v.format == "int64" {
				format = v.format
			}
		case "number":
			typeName = "number"
			if v.format == "float" || v.format == "double" {
				format = v.format
			}
		}
	}
	res := new(result)
	resMultiple, resMinimum, resMaximum := new(result), new(result), new(result)
	data := asFloat64(val)
	if e, ok := checkRange(val, typeName, format, "Checked", name); !ok {
		res.addErrors(e)
	}
	if v.multipleOf != nil {
		if e, ok := checkRange(*v.multipleOf, typeName, format, "MultipleOf", name); !ok {
			resMultiple.addErrors(e)
			if e, ok := multipleOfFloat(name, data, *v.multipleOf); !ok {
				resMultiple.addErrors(e)
			}
		} else if e, ok := multipleOfNative(name, val, *v.multipleOf); !ok {
			resMultiple.addErrors(e)
		}
	}
	if v.maximum != nil {
		if e, ok := checkRange(*v.maximum, typeName, format, "Maximum boundary", name); !ok {
			resMaximum.addErrors(e)
			if e, ok := maximumFloat(name, data, *v.maximum, v.exclusiveMaximum, val); !ok {
				resMaximum.addErrors(e)
			}
		} else if e, ok := maximumNative(name, val, *v.maximum, v.exclusiveMaximum); !ok {
			resMaximum.addErrors(e)
		}
	}
	if v.minimum != nil {
		if e, ok := checkRange(*v.minimum, typeName, format, "Minimum boundary", name); !ok {
			resMinimum.addErrors(e)
			if e, ok := minimumFloat(name, data, *v.minimum, v.exclusiveMinimum, val); !ok {
				resMinimum.addErrors(e)
			}
		} else if e, ok := minimumNative(name, val, *v.minimum, v.exclusiveMinimum); !ok {
			resMinimum.addErrors(e)
		}
	}
	res.merge(resMultiple, resMinimum, resMaximum)
	res.inc()
	return res
}

// checkRange reports whether val fits typeName and format (an int32
// value, a float32 value); the error is a plain one, reported at the root.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (IsValueValidAgainstRange).
func checkRange(val any, typeName, format, prefix, name string) (verr, bool) {
	rv := reflect.ValueOf(val)
	var rep string
	switch k := rv.Kind(); {
	case k >= reflect.Uint && k <= reflect.Uint64:
		rep = strconv.FormatUint(rv.Uint(), 10)
	case k >= reflect.Int && k <= reflect.Int64:
		rep = strconv.FormatInt(rv.Int(), 10)
	case k == reflect.Float32 || k == reflect.Float64:
		rep = strconv.FormatFloat(rv.Float(), 'f', -1, 64)
	default:
		return plainErr("%s value number range checking called with invalid (non numeric) val type in %s", prefix, name), false
	}
	var err error
	switch typeName {
	case "integer":
		switch format {
		case "int32":
			_, err = strconv.ParseInt(rep, 10, 32)
		case "uint32":
			_, err = strconv.ParseUint(rep, 10, 32)
		case "uint64":
			_, err = strconv.ParseUint(rep, 10, 64)
		default:
			_, err = strconv.ParseInt(rep, 10, 64)
		}
	default:
		if format == "float" || format == "float32" {
			_, err = strconv.ParseFloat(rep, 32)
		}
	}
	if err == nil {
		return verr{}, true
	}
	if format != "" {
		return plainErr("%s value must be of type %s with format %s in %s", prefix, typeName, format, name), false
	}
	return plainErr("%s value must be of type %s (default format) in %s", prefix, typeName, name), false
}

func asFloat64(val any) float64 {
	rv := reflect.ValueOf(val)
	switch k := rv.Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		return float64(rv.Int())
	case k >= reflect.Uint && k <= reflect.Uint64:
		return float64(rv.Uint())
	case k == reflect.Float32 || k == reflect.Float64:
		return rv.Float()
	}
	return 0
}

func asInt64(val any) int64 {
	rv := reflect.ValueOf(val)
	switch k := rv.Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		return rv.Int()
	case k >= reflect.Uint && k <= reflect.Uint64:
		return int64(rv.Uint())
	case k == reflect.Float32 || k == reflect.Float64:
		return int64(rv.Float())
	}
	return 0
}

func asUint64(val any) uint64 {
	rv := reflect.ValueOf(val)
	switch k := rv.Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		return uint64(rv.Int())
	case k >= reflect.Uint && k <= reflect.Uint64:
		return rv.Uint()
	case k == reflect.Float32 || k == reflect.Float64:
		return uint64(rv.Float())
	}
	return 0
}

type numKind int

const (
	numFloat numKind = iota
	numInt
	numUint
)

func numKindOf(val any) numKind {
	switch k := reflect.ValueOf(val).Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		return numInt
	case k >= reflect.Uint && k <= reflect.Uint64:
		return numUint
	}
	return numFloat
}

func maxErr(name string, bound any, exclusive bool, val any) verr {
	msg := "%s in %s should be less than or equal to %v"
	if exclusive {
		msg = "%s in %s should be less than %v"
	}
	return verr{code: codeMax, name: name, value: val, message: sprintf(msg, name, in, bound)}
}

func minErr(name string, bound any, exclusive bool, val any) verr {
	msg := "%s in %s should be greater than or equal to %v"
	if exclusive {
		msg = "%s in %s should be greater than %v"
	}
	return verr{code: codeMin, name: name, value: val, message: sprintf(msg, name, in, bound)}
}

func maximumNative(name string, val any, maxV float64, exclusive bool) (verr, bool) {
	switch numKindOf(val) {
	case numInt:
		d, m := asInt64(val), int64(maxV)
		if (!exclusive && d > m) || (exclusive && d >= m) {
			return maxErr(name, m, exclusive, d), false
		}
	case numUint:
		d := asUint64(val)
		if maxV < 0 {
			return maxErr(name, maxV, exclusive, val), false
		}
		if m := uint64(maxV); (!exclusive && d > m) || (exclusive && d >= m) {
			return maxErr(name, m, exclusive, d), false
		}
	default:
		return maximumFloat(name, asFloat64(val), maxV, exclusive, asFloat64(val))
	}
	return verr{}, true
}

func maximumFloat(name string, d, maxV float64, exclusive bool, _ any) (verr, bool) {
	if (!exclusive && d > maxV) || (exclusive && d >= maxV) {
		return maxErr(name, maxV, exclusive, d), false
	}
	return verr{}, true
}

func minimumNative(name string, val any, minV float64, exclusive bool) (verr, bool) {
	switch numKindOf(val) {
	case numInt:
		d, m := asInt64(val), int64(minV)
		if (!exclusive && d < m) || (exclusive && d <= m) {
			return minErr(name, m, exclusive, d), false
		}
	case numUint:
		d := asUint64(val)
		if minV < 0 {
			return verr{}, true
		}
		if m := uint64(minV); (!exclusive && d < m) || (exclusive && d <= m) {
			return minErr(name, m, exclusive, d), false
		}
	default:
		return minimumFloat(name, asFloat64(val), minV, exclusive, asFloat64(val))
	}
	return verr{}, true
}

func minimumFloat(name string, d, minV float64, exclusive bool, _ any) (verr, bool) {
	if (!exclusive && d < minV) || (exclusive && d <= minV) {
		return minErr(name, minV, exclusive, d), false
	}
	return verr{}, true
}

func multipleOfNative(name string, val any, factor float64) (verr, bool) {
	switch numKindOf(val) {
	case numInt:
		d, f := asInt64(val), int64(factor)
		if f <= 0 {
			return mustBePositive(name, f), false
		}
		if (d/f)*f != d {
			return notMultipleOf(name, f, d), false
		}
	case numUint:
		d, f := asUint64(val), uint64(factor)
		if f == 0 {
			return mustBePositive(name, f), false
		}
		if (d/f)*f != d {
			return notMultipleOf(name, f, d), false
		}
	default:
		return multipleOfFloat(name, asFloat64(val), factor)
	}
	return verr{}, true
}

func multipleOfFloat(name string, d, factor float64) (verr, bool) {
	if factor <= 0 {
		return mustBePositive(name, factor), false
	}
	var mult float64
	if factor < 1 {
		mult = 1 / factor * d
	} else {
		mult = d / factor
	}
	if !isFloat64AJSONInteger(mult) {
		return notMultipleOf(name, factor, d), false
	}
	return verr{}, true
}

func mustBePositive(name string, factor any) verr {
	return verr{code: codeMultipleOfMustBePositive, name: name, value: factor,
		message: sprintf("factor MultipleOf declared for %s must be positive: %v", name, factor)}
}

func notMultipleOf(name string, factor, val any) verr {
	return verr{code: codeMultipleOf, name: name, value: val, message: sprintf("%s in %s should be a multiple of %v", name, in, factor)}
}

// isFloat64AJSONInteger reports whether f is an integer JavaScript can
// represent exactly, allowing a relative error of 1e-9.
//
// Upstream: github.com/go-openapi/swag/conv (IsFloat64AJSONInteger).
func isFloat64AJSONInteger(f float64) bool {
	const maxJSONFloat = float64(1<<53 - 1)
	const epsilon = 1e-9
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSONFloat || f > maxJSONFloat {
		return false
	}
	rounded := math.Round(f)
	if f == rounded {
		return true
	}
	if rounded == 0 {
		return false
	}
	diff := math.Abs(f - rounded)
	if diff == 0 {
		return true
	}
	return diff < epsilon*math.Abs(rounded)
}
