package strategicpatch

import (
	"fmt"
	"reflect"
)

// mergeList merges a patch list into the original list of field. Lists
// without the merge strategy are replaced by the patch's, directives and
// all, as upstream does; a $deleteFromPrimitiveList list always merges.
//
// Upstream: mergeSliceHandler.
func mergeList(original, patch []any, field fieldSchema, strategy string, isDeleteList bool, path string) ([]any, error) {
	if strategy == mergeDirective || isDeleteList {
		return mergeSlice(original, patch, field.elem(), field.mergeKey, isDeleteList, path)
	}
	return patch, nil
}

// mergeSlice merges two lists of one field. Primitives are merged as a set
// (or, for a delete list, removed); maps are matched by mergeKey and merged
// recursively, after the $patch items of the patch are followed. The
// result has the patch's items in the patch's order, with the items only
// the original has placed among them in their original order.
//
// mergeSlice works in place on original's backing array, as upstream's
// does: deletions shift items left and new items are appended, and the
// caller that still holds the full-length original sees those writes.
// mergeSetElementOrder orders by that view, so the order it produces
// matches upstream's only if these writes do too.
//
// Upstream: mergeSlice.
func mergeSlice(original, patch []any, elem reflect.Type, mergeKey string, isDeleteList bool, path string) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	t, err := elementType(path, original, patch)
	if err != nil {
		return nil, err
	}
	ofMaps := t.Kind() == reflect.Map
	var merged []any
	if !ofMaps {
		if isDeleteList {
			return deleteFromSlice(original, patch), nil
		}
		merged = deduplicate(append(original, patch...))
	} else {
		if mergeKey == "" {
			return nil, pathErrorf(path, "cannot merge lists without merge key for %s", schemaName(elem))
		}
		if original, patch, err = mergeSpecialElements(original, patch, mergeKey, path); err != nil {
			return nil, err
		}
		if merged, err = mergeByKey(original, patch, mergeKey, elem, path); err != nil {
			return nil, err
		}
	}
	var patchItems, serverOnly []any
	if mergeKey == "" {
		patchItems, serverOnly, err = partitionPrimitives(merged, patch, path)
	} else {
		patchItems, serverOnly, err = partitionMaps(merged, patch, mergeKey, path)
	}
	if err != nil {
		return nil, err
	}
	return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, ofMaps, path)
}

// mergeSpecialElements follows the $patch items of a patch list of maps:
// {"<key>": v, "$patch": "delete"} removes the original items with key v,
// and {"$patch": "replace"} makes the rest of the patch list the whole
// list. It returns the original list and the patch list to merge next.
//
// Upstream: mergeSliceWithSpecialElements.
func mergeSpecialElements(original, patch []any, mergeKey, path string) (_, _ []any, _ error) {
	rest := []any{}
	replace := false
	for i, v := range patch {
		item := v.(map[string]any) // elementType checked every item is a map
		directive, ok := item[directiveMarker]
		if !ok {
			rest = append(rest, v)
			continue
		}
		switch directive {
		case deleteDirective:
			key, ok := item[mergeKey]
			if !ok {
				return nil, nil, noMergeKey(fmt.Sprintf("%s[%d]", path, i), item, mergeKey)
			}
			var err error
			if original, err = deleteMatching(original, mergeKey, key, path); err != nil {
				return nil, nil, err
			}
		case replaceDirective:
			// Keep going: the other $patch items must still be removed.
			replace = true
		case mergeDirective:
			return nil, nil, pathErrorf(path, "merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, pathErrorf(path, "unknown patch type %v in map %v", directive, item)
		}
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// deleteMatching removes the maps whose mergeKey is value from list, in
// place (see mergeSlice), and returns the shortened list.
//
// Upstream: deleteMatchingEntries.
func deleteMatching(list []any, mergeKey string, value any, path string) ([]any, error) {
	for {
		_, at, err := findByKey(list, mergeKey, value, path)
		if err != nil || at < 0 {
			return list, err
		}
		list = append(list[:at], list[at+1:]...)
	}
}

// mergeByKey merges each patch item into the original item with the same
// merge key, and appends the patch items no original item matches.
//
// It appends in place (see mergeSlice).
//
// Upstream: mergeSliceWithoutSpecialElements.
func mergeByKey(original, patch []any, mergeKey string, elem reflect.Type, path string) ([]any, error) {
	merged := original
	for i, v := range patch {
		item := v.(map[string]any) // elementType checked every item is a map
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		key, ok := item[mergeKey]
		if !ok {
			return nil, noMergeKey(itemPath, item, mergeKey)
		}
		if !isScalar(key) {
			return nil, pathErrorf(itemPath, "the merge key %s must be a string, number or boolean, not %v", mergeKey, key)
		}
		m, at, err := findByKey(merged, mergeKey, key, path)
		if err != nil {
			return nil, err
		}
		if at < 0 {
			merged = append(merged, v)
			continue
		}
		if merged[at], err = mergeMap(m, item, elem, itemPath); err != nil {
			return nil, err
		}
	}
	return merged, nil
}

// findByKey returns the first map of list whose mergeKey is value, and its
// index, or -1.
//
// Upstream: findMapInSliceBasedOnKeyValue.
func findByKey(list []any, mergeKey string, value any, path string) (map[string]any, int, error) {
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, -1, pathErrorf(path, "item %d is not a map", i)
		}
		if key, ok := m[mergeKey]; ok && same(key, value) {
			return m, i, nil
		}
	}
	return nil, -1, nil
}

// deleteFromSlice returns current without the values in toDelete.
func deleteFromSlice(current, toDelete []any) []any {
	drop := map[any]bool{}
	for _, v := range toDelete {
		drop[v] = true // elementType checked these are scalars
	}
	out := make([]any, 0, len(current))
	for _, v := range current {
		if !drop[v] {
			out = append(out, v)
		}
	}
	return out
}

// deduplicate removes repeated values from list in place, moving the last
// value into each hole: the same writes as upstream's, which the caller
// holding the original list sees (see mergeSlice). normalizeElementOrder
// orders the result.
//
// Upstream: deduplicateScalars.
func deduplicate(list []any) []any {
	last := len(list) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if same(list[i], list[j]) {
				list[j] = list[last]
				list = list[:last]
				last--
				j--
			}
		}
	}
	return list
}

// elementType returns the type of the items of lists, which must all have
// the same type and be maps or primitives.
//
// Upstream: sliceElementType, which panics on a null item.
func elementType(path string, lists ...[]any) (reflect.Type, error) {
	var t reflect.Type
	for _, list := range lists {
		for _, v := range list {
			vt := reflect.TypeOf(v)
			switch {
			case vt == nil:
				return nil, pathErrorf(path, "a list to merge cannot hold null")
			case t == nil:
				t = vt
				if t.Kind() == reflect.Slice {
					return nil, pathError(path, ErrNoListOfLists)
				}
			case t != vt:
				return nil, pathErrorf(path, "list element types are not identical: %v", lists)
			}
		}
	}
	if t == nil {
		return nil, pathErrorf(path, "no elements in any of the given slices")
	}
	return t, nil
}

// isScalar reports whether v is a JSON primitive (or null).
func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// same compares two primitives as upstream's == does, and reports false
// for maps and lists, where == panics.
func same(a, b any) bool {
	return isScalar(a) && isScalar(b) && a == b
}

func noMergeKey(path string, m map[string]any, mergeKey string) error {
	return pathErrorf(path, "map %v does not contain declared merge key %s", m, mergeKey)
}
