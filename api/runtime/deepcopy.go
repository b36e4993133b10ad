package runtime

import (
	"reflect"
	"sync"
)

// DeepCopy returns a copy of in that shares no pointers, maps or slices with
// it. Every kind's DeepCopyObject calls it, instead of generated code, so
// adding a field to a type never leaves a stale hand-written copy behind.
//
// Values without exported fields to follow (time.Time, strings) are copied
// by value, which is safe because they are immutable.
func DeepCopy[T any](in T) T {
	// Copy into a T rather than asserting reflect's result to T, which
	// panics when T is an interface type and in is nil.
	var out T
	copyValue(reflect.ValueOf(&out).Elem(), reflect.ValueOf(&in).Elem())
	return out
}

func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyValue(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		c := reflect.New(src.Elem().Type()).Elem()
		copyValue(c, src.Elem())
		dst.Set(c)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		// One copy of every element, then the references each holds.
		reflect.Copy(s, src)
		if !isFlat(src.Type().Elem()) {
			for i := range src.Len() {
				replaceShared(s.Index(i), src.Index(i))
			}
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		flat := isFlat(src.Type().Elem())
		iter := src.MapRange()
		for iter.Next() {
			if flat {
				m.SetMapIndex(iter.Key(), iter.Value())
				continue
			}
			c := reflect.New(src.Type().Elem()).Elem()
			copyValue(c, iter.Value())
			m.SetMapIndex(iter.Key(), c)
		}
		dst.Set(m)
	case reflect.Struct, reflect.Array:
		// Copy the whole value first: that carries unexported fields
		// (time.Time's wall clock and location) which cannot be set one
		// by one; the references it shares are then replaced by copies.
		dst.Set(src)
		replaceShared(dst, src)
	default:
		dst.Set(src)
	}
}

// replaceShared replaces the references that dst, a shallow copy of src,
// shares with it by deep copies. A struct or array nested by value was
// copied with its parent already, so only its reference fields are
// visited, not copied again.
func replaceShared(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Struct:
		for _, i := range planOf(src.Type()).refFields {
			replaceShared(dst.Field(i), src.Field(i))
		}
	case reflect.Array:
		if isFlat(src.Type().Elem()) {
			return
		}
		for i := range src.Len() {
			replaceShared(dst.Index(i), src.Index(i))
		}
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		copyValue(dst, src)
	}
	// Anything else holds no reference, or one (a channel, a function)
	// that a copy shares as the shallow copy does.
}

// isFlat reports whether values of t hold no references, so copying them by
// value is already a deep copy.
func isFlat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return false
	case reflect.Array:
		return isFlat(t.Elem())
	case reflect.Struct:
		return planOf(t).flat
	}
	return true
}

// structPlan is what copying a struct type needs to know, worked out once
// per type: walking a Pod's type with reflection on every copy (the
// fields, their names, whether each holds a reference) cost twenty times
// the copy itself.
type structPlan struct {
	// flat is isFlat of the type.
	flat bool
	// refFields are the indices of the exported fields that hold
	// references, which a deep copy must copy in turn.
	refFields []int
}

// structPlans holds a *structPlan per struct type. Types are few and
// never go away, so it only grows.
var structPlans sync.Map

func planOf(t reflect.Type) *structPlan {
	if p, ok := structPlans.Load(t); ok {
		return p.(*structPlan)
	}
	p := &structPlan{flat: true}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && !isFlat(f.Type) {
			p.flat = false
			p.refFields = append(p.refFields, i)
		}
	}
	// Two goroutines may work out the same plan at once; both are equal.
	structPlans.Store(t, p)
	return p
}
