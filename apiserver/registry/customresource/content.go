package customresource

import (
	"encoding/json"
	"strings"

	"github.com/minicp/minicp/api/meta/v1/unstructured"
)

// metadataMap is u's metadata as decoded JSON, as a schema and JSON
// paths see it.
func metadataMap(u *unstructured.Unstructured) map[string]any {
	data, err := json.Marshal(&u.ObjectMeta)
	if err != nil {
		return map[string]any{}
	}
	v, err := unstructured.DecodeValue(data)
	if err != nil {
		return map[string]any{}
	}
	m, _ := v.(map[string]any)
	return m
}

// splitPath turns a simple JSON path (".spec.replicas", the form of a
// CRD's scale paths and selectable fields) into its field names.
func splitPath(p string) []string {
	return strings.Split(strings.TrimPrefix(p, "."), ".")
}
