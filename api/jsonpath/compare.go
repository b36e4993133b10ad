package jsonpath

import "errors"

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errBadComparison     = errors.New("incompatible types for comparison")
)

// compare evaluates left op right for a filter. Strings, numbers and
// booleans compare with their own kind; anything else, or two kinds, is an
// error, as in text/template, where upstream's comparisons come from.
// Unlike upstream, an integer and a float compare by value: JSON does not
// say whether 2 and 2.0 differ.
func compare(op string, left, right any) (bool, error) {
	switch op {
	case "==":
		return equal(left, right)
	case "!=":
		eq, err := equal(left, right)
		return !eq, err
	case "<":
		return less(left, right)
	case ">=":
		lt, err := less(left, right)
		return !lt && err == nil, err
	case "<=":
		return lessEqual(left, right)
	case ">":
		le, err := lessEqual(left, right)
		return !le && err == nil, err
	}
	return false, errors.New("unrecognized filter operator " + op)
}

type kind int

const (
	invalidKind kind = iota
	boolKind
	numberKind
	stringKind
)

func kindOf(v any) kind {
	switch v.(type) {
	case bool:
		return boolKind
	case int64, float64, int:
		return numberKind
	case string:
		return stringKind
	}
	return invalidKind
}

// kinds checks that a and b can be compared and returns their kind.
func kinds(a, b any) (kind, error) {
	ka, kb := kindOf(a), kindOf(b)
	if ka == invalidKind || kb == invalidKind {
		return invalidKind, errBadComparisonType
	}
	if ka != kb {
		return invalidKind, errBadComparison
	}
	return ka, nil
}

func equal(a, b any) (bool, error) {
	k, err := kinds(a, b)
	if err != nil {
		return false, err
	}
	switch k {
	case boolKind:
		return a.(bool) == b.(bool), nil
	case stringKind:
		return a.(string) == b.(string), nil
	}
	if ia, ok := asInt(a); ok {
		if ib, ok := asInt(b); ok {
			return ia == ib, nil
		}
	}
	return asFloat(a) == asFloat(b), nil
}

func less(a, b any) (bool, error) {
	k, err := kinds(a, b)
	if err != nil {
		return false, err
	}
	switch k {
	case boolKind:
		return false, errBadComparisonType
	case stringKind:
		return a.(string) < b.(string), nil
	}
	if ia, ok := asInt(a); ok {
		if ib, ok := asInt(b); ok {
			return ia < ib, nil
		}
	}
	return asFloat(a) < asFloat(b), nil
}

func lessEqual(a, b any) (bool, error) {
	lt, err := less(a, b)
	if lt || err != nil {
		return lt, err
	}
	return equal(a, b)
}

// asInt returns an integer number; integers are compared exactly, since
// int64 values above 2^53 do not survive a float64.
func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	}
	return 0, false
}

func asFloat(v any) float64 {
	if i, ok := asInt(v); ok {
		return float64(i)
	}
	return v.(float64)
}
