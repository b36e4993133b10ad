package schema

import (
	"encoding/json"

	"github.com/minicp/minicp/api/apierrors"
)

// validateListSetsAndMaps checks that the elements of every list of
// x-kubernetes-list-type set are unique, and that those of every list of
// type map are objects with unique key combinations. Each duplicate after
// the first is reported once, as "Duplicate value" with the element (set)
// or its keys (map).
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype (ValidateListSetsAndMaps).
func validateListSetsAndMaps(fldPath path, s *Structural, obj map[string]any) apierrors.FieldErrors {
	if s == nil || obj == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	keys := sortedKeys(obj)
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		for _, k := range keys {
			errs = append(errs, validateListSetsAndMapsValue(fldPath.key(k), s.AdditionalProperties.Structural, obj[k])...)
		}
	}
	if s.Properties != nil {
		for _, k := range keys {
			if sub, ok := s.Properties[k]; ok {
				errs = append(errs, validateListSetsAndMapsValue(fldPath.child(k), &sub, obj[k])...)
			}
		}
	}
	return errs
}

func validateListSetsAndMapsValue(fldPath path, s *Structural, obj any) apierrors.FieldErrors {
	switch obj := obj.(type) {
	case []any:
		return validateListSetsAndMapsArray(fldPath, s, obj)
	case map[string]any:
		return validateListSetsAndMaps(fldPath, s, obj)
	}
	return nil
}

func validateListSetsAndMapsArray(fldPath path, s *Structural, obj []any) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if s.XListType != nil {
		switch *s.XListType {
		case "set":
			nonUnique, err := nonUniqueIndices(fldPath, obj)
			if err != nil {
				errs = append(errs, err)
			} else {
				for _, i := range nonUnique {
					errs = append(errs, duplicate(fldPath.index(i), obj[i]))
				}
			}
		case "map":
			errs = append(errs, validateListMap(fldPath, s, obj)...)
		}
	}
	if s.Items != nil {
		for i := range obj {
			errs = append(errs, validateListSetsAndMapsValue(fldPath.index(i), s.Items, obj[i])...)
		}
	}
	return errs
}

// unspecifiedKey stands for a map-list element without its key.
type unspecifiedKey struct{}

// nonUniqueIndices returns the index of the second occurrence of each
// value that occurs more than once. Objects and arrays are compared by
// their JSON; scalars by value and type (int64(1) is not float64(1)).
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype (validateListSet).
func nonUniqueIndices(fldPath path, obj []any) ([]int, *apierrors.FieldError) {
	if len(obj) <= 1 {
		return nil, nil
	}
	seenScalars := make(map[any]int, len(obj))
	seenCompounds := make(map[string]int, len(obj))
	var out []int
	for i, x := range obj {
		switch x.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				return nil, invalid(fldPath.index(i), x, "internal error")
			}
			seenCompounds[string(b)]++
			if seenCompounds[string(b)] == 2 {
				out = append(out, i)
			}
		default:
			if !isHashable(x) {
				continue
			}
			seenScalars[x]++
			if seenScalars[x] == 2 {
				out = append(out, i)
			}
		}
	}
	return out, nil
}

// isHashable reports whether x may be a map key: JSON scalars are, other
// Go values (slices of other types) would panic.
func isHashable(x any) bool {
	switch x.(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, unspecifiedKey:
		return true
	}
	return false
}

func validateListMap(fldPath path, s *Structural, obj []any) apierrors.FieldErrors {
	for i, x := range obj {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return apierrors.FieldErrors{invalid(fldPath.index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(obj) <= 1 {
		return nil
	}
	if len(s.XListMapKeys) == 1 {
		keyField := s.XListMapKeys[0]
		keys := make([]any, 0, len(obj))
		for _, x := range obj {
			m, _ := x.(map[string]any)
			key, ok := m[keyField]
			if !ok {
				keys = append(keys, unspecifiedKey{})
				continue
			}
			keys = append(keys, key)
		}
		nonUnique, err := nonUniqueIndices(fldPath, keys)
		if err != nil {
			return apierrors.FieldErrors{err}
		}
		var errs apierrors.FieldErrors
		for _, i := range nonUnique {
			if keys[i] == (unspecifiedKey{}) {
				errs = append(errs, duplicate(fldPath.index(i), map[string]any{}))
			} else {
				errs = append(errs, duplicate(fldPath.index(i), map[string]any{keyField: keys[i]}))
			}
		}
		return errs
	}
	keys := make([]any, 0, len(obj))
	for _, x := range obj {
		key := map[string]any{}
		if m, ok := x.(map[string]any); ok {
			for _, keyField := range s.XListMapKeys {
				if k, ok := m[keyField]; ok {
					key[keyField] = k
				}
			}
		}
		keys = append(keys, key)
	}
	nonUnique, err := nonUniqueIndices(fldPath, keys)
	if err != nil {
		return apierrors.FieldErrors{err}
	}
	var errs apierrors.FieldErrors
	for _, i := range nonUnique {
		errs = append(errs, duplicate(fldPath.index(i), keys[i]))
	}
	return errs
}
