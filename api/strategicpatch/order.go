package strategicpatch

import (
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// mergeSetElementOrder follows each $setElementOrder/f directive of
// patch: it merges list f of the patch into original's (so the main merge
// skips it) and orders the result: the items named by the directive in
// its order, and the items only the original has placed among them in
// their original order.
//
// Upstream: mergePatchIntoOriginal.
func mergeSetElementOrder(original, patch map[string]any, t reflect.Type, path string) error {
	for _, key := range slices.Sorted(maps.Keys(patch)) {
		v, ok := patch[key]
		if !ok || !strings.HasPrefix(key, setElementOrderDirectivePrefix) {
			continue
		}
		delete(patch, key)
		order, ok := v.([]any)
		if !ok {
			return pathErrorf(path, "%s must be a list, not %v", key, v)
		}
		listKey, err := extractKey(key, setElementOrderDirectivePrefix, ErrBadPatchFormatForSetElementOrderList)
		if err != nil {
			return pathError(path, err)
		}
		fieldPath := joinPath(path, listKey)
		originalV, foundOriginal := original[listKey]
		patchV, foundPatch := patch[listKey]
		var originalList, patchList []any
		if foundOriginal {
			if originalList, ok = originalV.([]any); !ok {
				return pathErrorf(fieldPath, "%s orders a value that is not a list: %v", key, originalV)
			}
		}
		if foundPatch {
			if patchList, ok = patchV.([]any); !ok {
				return pathErrorf(fieldPath, "%s orders a value that is not a list: %v", key, patchV)
			}
		}
		field := lookupField(t, listKey)
		strategy, err := field.strategy(fieldPath)
		if err != nil {
			return err
		}
		if err := validateSetElementOrder(patchList, order, field.mergeKey, fieldPath); err != nil {
			return err
		}
		// originalList keeps its length while mergeList below shortens and
		// appends to its backing array: it then reads the surviving items,
		// then the first added ones, then stale ones. Upstream orders the
		// server-only items by exactly that view.
		var merged []any
		switch {
		case foundOriginal && !foundPatch:
			merged = originalList
		case !foundOriginal && foundPatch:
			list, _ := removeDirectives(patchList)
			merged = list.([]any)
		case foundOriginal && foundPatch:
			if merged, err = mergeList(originalList, patchList, field, strategy, false, fieldPath); err != nil {
				return err
			}
		default:
			continue
		}
		var patchItems, serverOnly []any
		if field.mergeKey == "" {
			patchItems, serverOnly, err = partitionPrimitives(merged, order, fieldPath)
		} else {
			patchItems, serverOnly, err = partitionMaps(merged, order, field.mergeKey, fieldPath)
		}
		if err != nil {
			return err
		}
		et, err := elementType(fieldPath, originalList, patchList)
		if err != nil {
			return err
		}
		ordered, err := normalizeElementOrder(patchItems, serverOnly, order, originalList, field.mergeKey, et.Kind() == reflect.Map, fieldPath)
		if err != nil {
			return err
		}
		original[listKey] = ordered
		delete(patch, listKey)
	}
	return nil
}

// validateSetElementOrder checks that the items of a patch list (but its
// deletions) appear in its $setElementOrder list, in the same order.
//
// Upstream: validatePatchWithSetOrderList.
func validateSetElementOrder(patchList, order []any, mergeKey, path string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	items := patchList
	if mergeKey != "" {
		var err error
		if items, _, err = splitDeletions(patchList, path); err != nil {
			return err
		}
	}
	p, o := 0, 0
	for p < len(items) && o < len(order) {
		if m, ok := items[p].(map[string]any); ok {
			if _, ok := m[directiveMarker]; ok {
				p++
				continue
			}
		}
		equal, err := mergeKeyEqual(items[p], order[o], mergeKey, path)
		if err != nil {
			return err
		}
		if equal {
			p++
		}
		o++
	}
	if p < len(items) {
		return pathErrorf(path, "the order in patch list %v doesn't match %s list %v", patchList, setElementOrderDirectivePrefix, order)
	}
	return nil
}

// mergeKeyEqual reports whether two list items are the same item: equal
// primitives, or maps with equal merge keys.
func mergeKeyEqual(a, b any, mergeKey, path string) (bool, error) {
	if mergeKey == "" {
		return same(a, b), nil
	}
	am, ok := a.(map[string]any)
	if !ok {
		return false, pathErrorf(path, "expected a map with merge key %s, got %v", mergeKey, a)
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false, pathErrorf(path, "expected a map with merge key %s, got %v", mergeKey, b)
	}
	ak, ok := am[mergeKey]
	if !ok {
		return false, noMergeKey(path, am, mergeKey)
	}
	bk, ok := bm[mergeKey]
	if !ok {
		return false, noMergeKey(path, bm, mergeKey)
	}
	return same(ak, bk), nil
}

// splitDeletions splits a list of maps into its items and its
// {"$patch": "delete"} items.
//
// Upstream: extractToDeleteItems.
func splitDeletions(list []any, path string) (keep, deletions []any, _ error) {
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, pathErrorf(path, "expected a map, got %v", v)
		}
		if d, ok := m[directiveMarker]; ok && d == deleteDirective {
			deletions = append(deletions, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, deletions, nil
}

// partitionPrimitives splits list into the values in by and the others,
// each in list's order.
func partitionPrimitives(list, by []any, path string) (in, out []any, _ error) {
	set := map[any]bool{}
	for _, v := range by {
		if isScalar(v) {
			set[v] = true
		}
	}
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		if !isScalar(v) {
			return nil, nil, pathErrorf(path, "cannot order a list of objects without a merge key")
		}
		if set[v] {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out, nil
}

// partitionMaps splits list into the maps whose merge key some map of by
// has and the others, each in list's order.
func partitionMaps(list, by []any, mergeKey, path string) (in, out []any, _ error) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, pathErrorf(path, "expected a map, got %v", v)
		}
		key, ok := m[mergeKey]
		if !ok {
			return nil, nil, noMergeKey(path, m, mergeKey)
		}
		_, at, err := findByKey(by, mergeKey, key, path)
		if err != nil {
			return nil, nil, err
		}
		if at >= 0 {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out, nil
}

// normalizeElementOrder sorts patchItems by patchOrder and serverOnly by
// serverOrder, then interleaves them: a server-only item goes before a
// patch item when the server had it first, and patch items the server did
// not have come before the server-only items that follow them.
//
// Upstream: normalizeElementOrder and mergeSortedSlice.
func normalizeElementOrder(patchItems, serverOnly, patchOrder, serverOrder []any, mergeKey string, ofMaps bool, path string) ([]any, error) {
	patchItems, err := normalizeSliceOrder(patchItems, patchOrder, mergeKey, ofMaps, path)
	if err != nil {
		return nil, err
	}
	serverOnly, err = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, ofMaps, path)
	if err != nil {
		return nil, err
	}
	// before reports whether l comes before r on the server; found is
	// false unless the server has both.
	before := func(l, r any) (less, found bool) {
		li, ri := index(serverOrder, l, mergeKey, ofMaps), index(serverOrder, r, mergeKey, ofMaps)
		return li < ri, li >= 0 && ri >= 0
	}
	out := make([]any, 0, len(patchItems)+len(serverOnly))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(patchItems) {
		switch {
		case j >= len(patchItems):
			out = append(out, serverOnly[i])
			i++
		case i >= len(serverOnly):
			out = append(out, patchItems[j])
			j++
		default:
			if less, found := before(serverOnly[i], patchItems[j]); found && less {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, patchItems[j])
				j++
			}
		}
	}
	return out, nil
}

// normalizeSliceOrder sorts list by the position of its items in order.
// Deletion items go last. The comparison treats an item missing from
// order as smaller than anything, exactly as upstream's does, so that
// sort.SliceStable puts such items where upstream puts them.
//
// Upstream: normalizeSliceOrder.
func normalizeSliceOrder(list, order []any, mergeKey string, ofMaps bool, path string) ([]any, error) {
	var deletions []any
	if ofMaps {
		for _, l := range [][]any{list, order} {
			for _, v := range l {
				m, ok := v.(map[string]any)
				if !ok {
					return nil, pathErrorf(path, "expected a map, got %v", v)
				}
				if _, ok := m[mergeKey]; !ok {
					return nil, noMergeKey(path, m, mergeKey)
				}
			}
		}
		var err error
		if list, deletions, err = splitDeletions(list, path); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if ii := index(order, list[i], mergeKey, ofMaps); ii >= 0 {
			if ij := index(order, list[j], mergeKey, ofMaps); ij >= 0 {
				return ii < ij
			}
		}
		return true
	})
	return append(list, deletions...), nil
}

// index returns the position in list of the item v (by merge key, for
// maps), or -1.
func index(list []any, v any, mergeKey string, ofMaps bool) int {
	key := func(item any) any {
		if !ofMaps {
			return item
		}
		m, _ := item.(map[string]any)
		return m[mergeKey]
	}
	want := key(v)
	for i, item := range list {
		if same(want, key(item)) {
			return i
		}
	}
	return -1
}
