package cel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apiextensions/schema"
)

var slicesSort = slices.Sort[[]string]

// mapList finds the old element of a list of x-kubernetes-list-type map
// that has the same keys as a new one, which is how transition rules on
// list elements see their oldSelf. Other lists correlate nothing.
//
// Upstream: k8s.io/apiserver/pkg/cel/common (MakeMapList).
type mapList struct {
	keys  []string
	items map[string]any
}

func newMapList(s *schema.Structural, items []any) *mapList {
	if s.Type != "array" || s.XListType == nil || *s.XListType != "map" || len(s.XListMapKeys) == 0 || len(items) == 0 {
		return &mapList{}
	}
	m := &mapList{keys: s.XListMapKeys, items: map[string]any{}}
	for _, item := range items {
		obj, ok := item.(map[string]any)
		if !ok {
			continue
		}
		if k, ok := m.key(obj); ok {
			if _, dup := m.items[k]; !dup {
				m.items[k] = obj
			}
		}
	}
	return m
}

// key is the composite key of an element; false when a key is missing or
// not a scalar.
func (m *mapList) key(obj map[string]any) (string, bool) {
	var b strings.Builder
	for _, k := range m.keys {
		switch v := obj[k].(type) {
		case bool, float64, int64, string:
			fmt.Fprintf(&b, "\x00%#v", v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

func (m *mapList) get(item any) any {
	obj, ok := item.(map[string]any)
	if !ok || m.items == nil {
		return nil
	}
	k, ok := m.key(obj)
	if !ok {
		return nil
	}
	return m.items[k]
}
