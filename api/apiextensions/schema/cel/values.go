package cel

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/minicp/minicp/api/apiextensions/schema"
)

// toVal turns a decoded JSON value into a CEL value of the schema's type.
// Objects, maps and lists are wrapped, not copied: their elements are
// converted when a rule reads them.
//
// Upstream: k8s.io/apiserver/pkg/cel/common (UnstructuredToVal).
func toVal(v any, s *schema.Structural) ref.Val {
	if v == nil {
		if s.Nullable {
			return types.NullValue
		}
		return types.NewErr("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		switch v := v.(type) {
		case string:
			return types.String(v)
		case int64:
			return types.Int(v)
		case int:
			return types.Int(v)
		case int32:
			return types.Int(v)
		}
		return types.NewErr("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return types.NewErr("invalid data, expected a map for the provided schema with type=object")
		}
		if s.XEmbeddedResource || s.Properties != nil {
			if s.XEmbeddedResource {
				s = withTypeAndObjectMeta(s)
			}
			return &objectVal{value: m, isObject: true, propSchema: func(k string) (*schema.Structural, bool) {
				p, ok := s.Properties[k]
				return &p, ok
			}}
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			ap := s.AdditionalProperties.Structural
			return &objectVal{value: m, propSchema: func(string) (*schema.Structural, bool) { return ap, true }}
		}
		return &objectVal{value: m, propSchema: func(string) (*schema.Structural, bool) { return nil, false }}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return types.NewErr("invalid data, expected an array for the provided schema with type=array")
		}
		if s.Items == nil {
			return types.NewErr("invalid array type, expected Items with a non-empty Schema")
		}
		list := &listVal{elements: l, items: s.Items}
		if s.XListType != nil {
			switch *s.XListType {
			case "map":
				return &mapListVal{listVal: list, keys: escapeKeys(s.XListMapKeys)}
			case "set":
				return &setListVal{listVal: list}
			}
		}
		return list
	case "string":
		str, ok := v.(string)
		if !ok {
			return types.NewErr("invalid data, expected string, got %T", v)
		}
		switch formatOf(s) {
		case "duration":
			d, err := time.ParseDuration(str)
			if err != nil {
				return types.NewErr("Invalid duration %s: %v", str, err)
			}
			return types.Duration{Duration: d}
		case "date":
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return types.NewErr("Invalid date formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "date-time":
			d, err := parseDateTime(str)
			if err != nil {
				return types.NewErr("Invalid date-time formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "byte":
			// URL-safe base64, as kube-openapi's strfmt.Base64 decodes it.
			b, err := base64.URLEncoding.DecodeString(str)
			if err != nil {
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
		return types.String(str)
	case "number":
		switch v := v.(type) {
		case float64:
			return types.Double(v)
		case int64:
			return types.Double(v)
		case int:
			return types.Double(v)
		case float32:
			return types.Double(v)
		}
		return types.NewErr("invalid data, expected float, got %T", v)
	case "integer":
		switch v := v.(type) {
		case int64:
			return types.Int(v)
		case int:
			return types.Int(v)
		case int32:
			return types.Int(v)
		}
		return types.NewErr("invalid data, expected int, got %T", v)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return types.NewErr("invalid data, expected bool, got %T", v)
		}
		return types.Bool(b)
	}
	if s.XPreserveUnknownFields {
		return &preservedVal{v: v}
	}
	return types.NewErr("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

// parseDateTime reads the RFC 3339 variants the date-time format allows.
func parseDateTime(s string) (time.Time, error) {
	var err error
	for _, layout := range []string{"2006-01-02T15:04:05.000000Z07:00", "2006-01-02T15:04:05.000Z07:00", time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05"} {
		var t time.Time
		if t, err = time.Parse(layout, strings.ToUpper(s)); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

func escapeKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		if e, ok := Escape(k); ok {
			out[i] = e
		} else {
			out[i] = k
		}
	}
	return out
}

// preservedVal is a value below x-kubernetes-preserve-unknown-fields
// without a type: rules may compare it, nothing else.
type preservedVal struct{ v any }

func (p *preservedVal) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t)
}

func (p *preservedVal) ConvertToType(t ref.Type) ref.Val {
	return types.NewErr("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t.TypeName())
}

func (p *preservedVal) Equal(other ref.Val) ref.Val {
	return types.Bool(reflect.DeepEqual(p.v, other.Value()))
}

func (p *preservedVal) Type() ref.Type { return types.UnknownType }

func (p *preservedVal) Value() any { return p.v }

// objectVal is an object or map. Objects are read by escaped field name.
type objectVal struct {
	value      map[string]any
	isObject   bool
	propSchema func(key string) (*schema.Structural, bool)
}

var _ traits.Mapper = (*objectVal)(nil)

func (o *objectVal) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Map {
		return o.value, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", o.Type(), t)
}

func (o *objectVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return o
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", o.Type(), t.TypeName())
}

// Equal compares the fields the schema knows as CEL values, and the
// others as JSON.
func (o *objectVal) Equal(other ref.Val) ref.Val {
	om, ok := other.(traits.Mapper)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if o.Size() != om.Size() {
		return types.False
	}
	for key, value := range o.value {
		if _, ok := o.propSchema(key); ok {
			lookup := key
			if o.isObject {
				if e, ok := Escape(key); ok {
					lookup = e
				}
			}
			v, found := o.Find(types.String(lookup))
			ov, oFound := om.Find(types.String(lookup))
			if found != oFound {
				return types.False
			}
			if !found {
				continue
			}
			if eq := v.Equal(ov); eq != types.True {
				return eq
			}
			continue
		}
		oo, ok := other.(*objectVal)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		if ov, ok := oo.value[key]; ok && !reflect.DeepEqual(value, ov) {
			return types.False
		}
	}
	return types.True
}

func (o *objectVal) Type() ref.Type { return types.MapType }

func (o *objectVal) Value() any { return o.value }

func (o *objectVal) Contains(key ref.Val) ref.Val {
	v, found := o.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (o *objectVal) Get(key ref.Val) ref.Val {
	if v, found := o.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (o *objectVal) Iterator() traits.Iterator {
	var keys []ref.Val
	for k := range o.value {
		if _, ok := o.propSchema(k); !ok {
			continue
		}
		if o.isObject {
			if e, ok := Escape(k); ok {
				k = e
			}
		}
		keys = append(keys, types.String(k))
	}
	return &sliceIterator{items: keys}
}

func (o *objectVal) Size() ref.Val { return types.Int(len(o.value)) }

// Find looks a key up; for objects the key is an escaped field name, and
// a null field counts as absent.
func (o *objectVal) Find(key ref.Val) (ref.Val, bool) {
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	if o.isObject {
		if k, ok = Unescape(k); !ok {
			return nil, false
		}
	}
	v, ok := o.value[k]
	if !ok || (o.isObject && v == nil) {
		return nil, false
	}
	ps, ok := o.propSchema(k)
	if !ok {
		return nil, false
	}
	return toVal(v, ps), true
}

// listVal is a list; set and map lists wrap it with their equality.
type listVal struct {
	elements []any
	items    *schema.Structural
}

var _ traits.Lister = (*listVal)(nil)

func (l *listVal) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Slice {
		if l.items.Type == "string" {
			out := make([]string, 0, len(l.elements))
			for _, e := range l.elements {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("expected all elements to be of type string, but got %T", e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		return l.elements, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", l.Type(), t)
}

func (l *listVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return l
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", l.Type(), t.TypeName())
}

func (l *listVal) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n := types.Int(len(l.elements))
	if n != ol.Size() {
		return types.False
	}
	for i := types.Int(0); i < n; i++ {
		if eq := l.Get(i).Equal(ol.Get(i)); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *listVal) Type() ref.Type { return types.ListType }

func (l *listVal) Value() any { return l.elements }

func (l *listVal) vals() []ref.Val {
	out := make([]ref.Val, len(l.elements))
	for i, e := range l.elements {
		out[i] = toVal(e, l.items)
	}
	return out
}

func (l *listVal) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := l.vals()
	for it := ol.Iterator(); it.HasNext() == types.True; {
		elements = append(elements, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, elements)
}

func (l *listVal) Contains(v ref.Val) ref.Val {
	if types.IsUnknownOrError(v) {
		return v
	}
	var err ref.Val
	for _, e := range l.elements {
		cmp := toVal(e, l.items).Equal(v)
		b, ok := cmp.(types.Bool)
		if !ok && err == nil {
			err = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if err != nil {
		return err
	}
	return types.False
}

func (l *listVal) Get(idx ref.Val) ref.Val {
	i, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	if i < 0 || int(i) >= len(l.elements) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return toVal(l.elements[i], l.items)
}

func (l *listVal) Iterator() traits.Iterator { return &sliceIterator{items: l.vals()} }

func (l *listVal) Size() ref.Val { return types.Int(len(l.elements)) }

// setListVal is a list of x-kubernetes-list-type set: equal to another
// list with the same elements in any order.
type setListVal struct{ *listVal }

func (s *setListVal) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(s.elements)) != ol.Size() {
		return types.False
	}
	mine := map[any]bool{}
	for _, v := range s.vals() {
		k, err := setElementKey(v)
		if err != nil {
			return err
		}
		mine[k] = true
	}
	seen := map[any]bool{}
	for it := ol.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if !mine[k] {
			return types.False
		}
		seen[k] = true
	}
	return types.Bool(len(seen) == len(mine))
}

// Add is the union, keeping the order of first occurrence.
func (s *setListVal) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := s.vals()
	set := map[any]bool{}
	for _, e := range elements {
		k, err := setElementKey(e)
		if err != nil {
			return err
		}
		set[k] = true
	}
	for it := ol.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setElementKey(v)
		if err != nil {
			return err
		}
		if !set[k] {
			set[k] = true
			elements = append(elements, v)
		}
	}
	return types.NewRefValList(types.DefaultTypeAdapter, elements)
}

func setElementKey(v ref.Val) (any, ref.Val) {
	switch v.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := v.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

// mapListVal is a list of x-kubernetes-list-type map: equal to another
// list with the same elements by key, in any order.
type mapListVal struct {
	*listVal
	keys []string // escaped
}

func (m *mapListVal) key(v ref.Val) any {
	mapper, ok := v.(traits.Mapper)
	if !ok {
		return nil
	}
	parts := make([]string, len(m.keys))
	for i, k := range m.keys {
		if kv, found := mapper.Find(types.String(k)); found && !types.IsUnknownOrError(kv) {
			parts[i] = fmt.Sprintf("%#v", kv.Value())
		}
	}
	return strings.Join(parts, "\x00")
}

func (m *mapListVal) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(m.elements)) != ol.Size() {
		return types.False
	}
	mine := map[any]ref.Val{}
	for _, v := range m.vals() {
		mine[m.key(v)] = v
	}
	seen := map[any]bool{}
	for it := ol.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := m.key(v)
		mv, ok := mine[k]
		if !ok {
			return types.False
		}
		if eq := mv.Equal(v); eq != types.True {
			return eq
		}
		seen[k] = true
	}
	return types.Bool(len(seen) == len(mine))
}

// Add merges: an element of other with the key of an element of m
// replaces it in place, the others are appended.
func (m *mapListVal) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := m.vals()
	index := map[any]int{}
	for i, e := range elements {
		index[m.key(e)] = i
	}
	for it := ol.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		if i, ok := index[m.key(v)]; ok {
			elements[i] = v
		} else {
			elements = append(elements, v)
		}
	}
	return types.NewRefValList(types.DefaultTypeAdapter, elements)
}

type sliceIterator struct {
	items []ref.Val
	idx   int
}

func (it *sliceIterator) HasNext() ref.Val { return types.Bool(it.idx < len(it.items)) }

func (it *sliceIterator) Next() ref.Val {
	v := it.items[it.idx]
	it.idx++
	return v
}

// sliceIterator must also be a ref.Val, as traits.Iterator embeds it.
func (it *sliceIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}

func (it *sliceIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }

func (it *sliceIterator) Equal(ref.Val) ref.Val { return types.NewErr("no such overload") }

func (it *sliceIterator) Type() ref.Type { return types.IteratorType }

func (it *sliceIterator) Value() any { return nil }
