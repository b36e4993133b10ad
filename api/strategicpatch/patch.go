package strategicpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The directives of a strategic merge patch, spelled as on the wire.
const (
	// directiveMarker is the key of {"$patch": "replace"|"delete"} in a
	// map, or in a list item.
	directiveMarker  = "$patch"
	deleteDirective  = "delete"
	replaceDirective = "replace"
	mergeDirective   = "merge"

	// retainKeysStrategy is a patchStrategy that tells the client building
	// a patch to send $retainKeys; the server only follows the directive.
	retainKeysStrategy = "retainKeys"

	deleteFromPrimitiveListDirectivePrefix = "$deleteFromPrimitiveList"
	retainKeysDirective                    = "$retainKeys"
	setElementOrderDirectivePrefix         = "$setElementOrder"
)

// StrategicMergePatch applies patch to original and returns the result.
// original and patch are JSON objects; schema is the Go type of the object
// (a struct, or a pointer to one), whose patchStrategy and patchMergeKey
// tags say how each list merges. A nil original is the empty object, a
// "null" patch changes nothing.
//
// An error wrapping ErrBadJSONDoc, ErrBadPatchFormatForPrimitiveList,
// ErrBadPatchFormatForRetainKeys or ErrBadPatchFormatForSetElementOrderList
// is a malformed patch; any other error is a patch that does not fit
// original or schema (a merge list item without its merge key, an unknown
// $patch value). It never panics on bad input and is safe for concurrent
// use; it does not keep or change its arguments.
//
// Upstream: k8s.io/apimachinery/pkg/util/strategicpatch (StrategicMergePatch).
func StrategicMergePatch(original, patch []byte, schema reflect.Type) ([]byte, error) {
	t := indirect(schema)
	if t == nil || t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("strategic merge patch: the schema must be a struct type, not %v", schema)
	}
	originalMap, err := decodeObject(original)
	if err != nil {
		return nil, fmt.Errorf("original: %w", err)
	}
	patchMap, err := decodeObject(patch)
	if err != nil {
		return nil, err
	}
	merged, err := mergeMap(originalMap, patchMap, t, "")
	if err != nil {
		return nil, err
	}
	return json.Marshal(merged)
}

// decodeObject decodes a JSON object. Integers become int64 and other
// numbers float64, as Kubernetes' json.Unmarshal decodes them, so that
// merge keys compare equal exactly when upstream's do.
func decodeObject(data []byte) (map[string]any, error) {
	if data == nil {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadJSONDoc, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: data after the top-level value", ErrBadJSONDoc)
	}
	v, err := convertNumbers(v)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadJSONDoc, err)
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	}
	return nil, fmt.Errorf("%w: not a JSON object", ErrBadJSONDoc)
}

// convertNumbers replaces each json.Number in v, in place.
//
// Upstream: sigs.k8s.io/json (UnmarshalCaseSensitivePreserveInts).
func convertNumbers(v any) (any, error) {
	var err error
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if !strings.Contains(s, ".") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i, nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", s, err)
		}
		return f, nil
	case map[string]any:
		for k, elem := range v {
			if v[k], err = convertNumbers(elem); err != nil {
				return nil, err
			}
		}
	case []any:
		for i, elem := range v {
			if v[i], err = convertNumbers(elem); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// mergeMap merges patch into original, a value of Go type t (nil when the
// schema does not know it), and returns the result. It changes both maps.
//
// The steps, in order: a $patch directive replaces or deletes the whole
// map; $retainKeys drops the keys it does not list; each
// $setElementOrder/f merges list f and puts it in order; then every other
// key of the patch is merged in, a $deleteFromPrimitiveList/f removing
// values from list f.
//
// Upstream: mergeMap, with MergeOptions{MergeParallelList: true,
// IgnoreUnmatchedNulls: true} (the server's options).
func mergeMap(original, patch map[string]any, t reflect.Type, path string) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		switch v {
		case replaceDirective:
			delete(patch, directiveMarker)
			return patch, nil
		case deleteDirective:
			return map[string]any{}, nil
		}
		return nil, pathErrorf(path, "unknown patch type %v in map %v", v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeys(original, patch, path); err != nil {
		return nil, err
	}
	if err := mergeSetElementOrder(original, patch, t, path); err != nil {
		return nil, err
	}
	for _, k := range patchOrder(patch) {
		patchV := patch[k]
		key, isDeleteList := k, false
		if strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) {
			var err error
			if key, err = extractKey(k, deleteFromPrimitiveListDirectivePrefix, ErrBadPatchFormatForPrimitiveList); err != nil {
				return nil, pathError(path, err)
			}
			isDeleteList = true
		}
		fieldPath := joinPath(path, key)
		if patchV == nil {
			delete(original, key)
			continue
		}
		originalV, found := original[key]
		if !found || reflect.TypeOf(originalV) != reflect.TypeOf(patchV) {
			// Nothing to merge with: take the patch's value, without its
			// directives. A delete list removes nothing from nothing.
			if !isDeleteList {
				setPatchValue(original, key, patchV)
			}
			continue
		}
		field := lookupField(t, key)
		var err error
		switch originalV := originalV.(type) {
		case map[string]any:
			var strategy string
			if strategy, err = field.strategy(fieldPath); err != nil {
				return nil, err
			}
			if strategy == replaceDirective {
				original[key] = patchV
				continue
			}
			original[key], err = mergeMap(originalV, patchV.(map[string]any), field.typ, fieldPath)
		case []any:
			var strategy string
			if strategy, err = field.strategy(fieldPath); err != nil {
				return nil, err
			}
			original[key], err = mergeList(originalV, patchV.([]any), field, strategy, isDeleteList, fieldPath)
		default:
			original[key] = patchV
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// patchOrder returns the keys of patch in the order mergeMap merges them:
// sorted, with the $deleteFromPrimitiveList directives last, so that a
// patch that both adds to and deletes from a list, or deletes the list,
// has the result its author meant. Upstream ranges over the patch in Go's
// random map order, so this is one of its results for every patch whose
// result depends on the order, and its only one for all others.
func patchOrder(patch map[string]any) []string {
	keys := slices.Sorted(maps.Keys(patch))
	slices.SortStableFunc(keys, func(a, b string) int {
		da := strings.HasPrefix(a, deleteFromPrimitiveListDirectivePrefix)
		db := strings.HasPrefix(b, deleteFromPrimitiveListDirectivePrefix)
		switch {
		case da == db:
			return 0
		case db:
			return -1
		}
		return 1
	})
	return keys
}

// setPatchValue sets original[key] to a patch value that has nothing to
// merge with: its nulls (deletions of nothing) and directives removed.
func setPatchValue(original map[string]any, key string, patchV any) {
	discardNulls(patchV)
	if v, keep := removeDirectives(patchV); keep {
		original[key] = v
	} else {
		delete(original, key)
	}
}

// applyRetainKeys follows a $retainKeys directive: the patch may set only
// the keys it lists, and original loses every key it does not list.
//
// Upstream: applyRetainKeysDirective.
func applyRetainKeys(original, patch map[string]any, path string) error {
	v, ok := patch[retainKeysDirective]
	if !ok {
		return nil
	}
	delete(patch, retainKeysDirective)
	list, ok := v.([]any)
	if !ok {
		return pathError(path, ErrBadPatchFormatForRetainKeys)
	}
	retain := map[string]bool{}
	for _, item := range list {
		if s, ok := item.(string); ok {
			retain[s] = true
		}
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) || strings.HasPrefix(k, setElementOrderDirectivePrefix) {
			continue
		}
		if !retain[k] {
			return pathError(path, fmt.Errorf("%w: %q is not in the list", ErrBadPatchFormatForRetainKeys, k))
		}
	}
	for k := range original {
		if !retain[k] {
			delete(original, k)
		}
	}
	return nil
}

// extractKey returns the field name f of a "<prefix>/f" directive key.
func extractKey(s, prefix string, errBadFormat error) (string, error) {
	head, key, ok := strings.Cut(s, "/")
	if !ok || head != prefix {
		return "", fmt.Errorf("%w: %q", errBadFormat, s)
	}
	return key, nil
}

// removeDirectives strips what a patch value says about merging from a
// value that has nothing to merge with: a map carrying $patch is dropped
// whole (keep is false), here and at every level below.
//
// Upstream: removeDirectives.
func removeDirectives(v any) (_ any, keep bool) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v[directiveMarker]; ok {
			return nil, false
		}
		for k, elem := range v {
			if elem, keep := removeDirectives(elem); keep {
				v[k] = elem
			} else {
				delete(v, k)
			}
		}
		return v, true
	case []any:
		out := []any{}
		for _, elem := range v {
			if elem, keep := removeDirectives(elem); keep {
				out = append(out, elem)
			}
		}
		return out, true
	}
	return v, true
}

// discardNulls removes the null values of the maps in v, at every level.
// A null in a patch deletes a key; where there is nothing to delete from,
// it means nothing.
//
// Upstream: discardNullValuesFromPatch.
func discardNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, elem := range v {
			if elem == nil {
				delete(v, k)
			} else {
				discardNulls(elem)
			}
		}
	case []any:
		for _, elem := range v {
			discardNulls(elem)
		}
	}
}
