package strategicpatch

import (
	"errors"
	"fmt"
)

// The errors of a patch document that is malformed as a whole, as opposed
// to one that does not fit the object it is applied to. The API server
// answers them 400 Bad Request, and every other StrategicMergePatch error
// 422 Unprocessable Entity. They are returned wrapped with the field path;
// classify them with errors.Is.
//
// Upstream: k8s.io/apimachinery/pkg/util/mergepatch (errors.go).
var (
	// ErrBadJSONDoc is an original or patch that is not a JSON object.
	ErrBadJSONDoc = errors.New("invalid JSON document")
	// ErrBadPatchFormatForPrimitiveList is a $deleteFromPrimitiveList
	// directive without a field name.
	ErrBadPatchFormatForPrimitiveList = errors.New("invalid patch format of primitive list")
	// ErrBadPatchFormatForRetainKeys is a $retainKeys directive that is not
	// a list of keys, or a patch that sets a key its $retainKeys drops.
	ErrBadPatchFormatForRetainKeys = errors.New("invalid patch format of retainKeys")
	// ErrBadPatchFormatForSetElementOrderList is a $setElementOrder
	// directive without a field name.
	ErrBadPatchFormatForSetElementOrderList = errors.New("invalid patch format of setElementOrder list")
)

// ErrNoListOfLists is a merged list whose items are lists.
var ErrNoListOfLists = errors.New("lists of lists are not supported")

// pathError prefixes err with the JSON path of the field it is about.
func pathError(path string, err error) error {
	if path == "" {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// pathErrorf is pathError for a new error.
func pathErrorf(path, format string, args ...any) error {
	return pathError(path, fmt.Errorf(format, args...))
}

// joinPath is the path of field key below path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
