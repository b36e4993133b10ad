package strategicpatch

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// fieldSchema is what a Go type says about one JSON field: the field's type
// and its patch struct tags. The zero fieldSchema is a field the schema
// does not know: no type, no strategy, so its lists are replaced and its
// maps merged.
type fieldSchema struct {
	// typ is the field's Go type, or nil when unknown.
	typ reflect.Type
	// strategies is the patchStrategy tag split on ",": "merge",
	// "replace", "retainKeys" or "merge,retainKeys".
	strategies []string
	// mergeKey is the patchMergeKey tag: the field of a list item that
	// identifies it ("name" for containers).
	mergeKey string
}

// strategy returns the field's patch strategy apart from retainKeys, which
// only matters to the client that builds a patch.
//
// Upstream: extractRetainKeysPatchStrategy.
func (f fieldSchema) strategy(path string) (string, error) {
	s := f.strategies
	if len(s) == 2 && s[0] == retainKeysStrategy {
		return s[1], nil
	}
	if len(s) == 2 && s[1] == retainKeysStrategy {
		return s[0], nil
	}
	if len(s) > 1 {
		return "", pathErrorf(path, "unexpected patch strategy %q", strings.Join(s, ","))
	}
	if len(s) == 0 || s[0] == retainKeysStrategy {
		return "", nil
	}
	return s[0], nil
}

// elem is the Go type of the items of a list field, or nil.
func (f fieldSchema) elem() reflect.Type {
	t := indirect(f.typ)
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		return t.Elem()
	}
	return nil
}

// lookupField returns the schema of field key of a value of type t. A
// struct answers from its fields, as encoding/json would decode key into
// them (exact name first, then case-insensitively); a map answers its value
// type without tags; anything else, and a type that decodes itself (Time,
// Quantity, IntOrString), knows no fields.
//
// Upstream: k8s.io/apimachinery/third_party/forked/golang/json
// (LookupPatchMetadataForStruct), which fails where this answers "unknown".
func lookupField(t reflect.Type, key string) fieldSchema {
	t = indirect(t)
	if t == nil || reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		return fieldSchema{}
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := fieldsOf(t)
		if f, ok := fields.byName[key]; ok {
			return f
		}
		for _, name := range fields.names {
			if strings.EqualFold(name, key) {
				return fields.byName[name]
			}
		}
	case reflect.Map:
		return fieldSchema{typ: t.Elem()}
	}
	return fieldSchema{}
}

var jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// indirect strips pointers from t.
func indirect(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// structFields are the JSON fields of a struct type.
type structFields struct {
	byName map[string]fieldSchema
	// names are the keys of byName in field order, for the
	// case-insensitive match.
	names []string
}

// fieldCache maps a struct type to its structFields: types are fixed, and
// walking them again on every request costs more than the merge.
var fieldCache sync.Map // reflect.Type -> *structFields

func fieldsOf(t reflect.Type) *structFields {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.(*structFields)
	}
	fields := &structFields{byName: map[string]fieldSchema{}}
	depth := map[string]int{}
	var collect func(t reflect.Type, level int, visiting map[reflect.Type]bool)
	// collect adds t's JSON fields, flattening embedded structs without a
	// JSON name as encoding/json does: of two fields with one name, the
	// shallower wins, and of two at one depth, the earlier.
	collect = func(t reflect.Type, level int, visiting map[reflect.Type]bool) {
		if visiting[t] {
			return
		}
		visiting[t] = true
		defer delete(visiting, t)
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				if ft := indirect(f.Type); ft.Kind() == reflect.Struct {
					collect(ft, level+1, visiting)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, dup := depth[name]; dup && d <= level {
				continue
			} else if !dup {
				fields.names = append(fields.names, name)
			}
			depth[name] = level
			var strategies []string
			if s := f.Tag.Get("patchStrategy"); s != "" {
				strategies = strings.Split(s, ",")
			}
			fields.byName[name] = fieldSchema{typ: f.Type, strategies: strategies, mergeKey: f.Tag.Get("patchMergeKey")}
		}
	}
	collect(t, 0, map[reflect.Type]bool{})
	fieldCache.Store(t, fields)
	return fields
}

// schemaName names t in error messages.
func schemaName(t reflect.Type) string {
	if t == nil {
		return "an unknown field"
	}
	return fmt.Sprint(t)
}
