package runtime

import "reflect"

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
		if isFlat(src.Type().Elem()) {
			reflect.Copy(s, src)
		} else {
			for i := range src.Len() {
				copyValue(s.Index(i), src.Index(i))
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
	case reflect.Array:
		// An array is a value, but its elements may hold references.
		dst.Set(src)
		if !isFlat(src.Type().Elem()) {
			for i := range src.Len() {
				copyValue(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Struct:
		// Copy the whole struct first: that carries unexported fields
		// (time.Time's wall clock and location) which cannot be set one by
		// one; exported reference fields are then replaced by copies.
		dst.Set(src)
		for i := range src.NumField() {
			if !src.Type().Field(i).IsExported() || isFlat(src.Field(i).Type()) {
				continue
			}
			copyValue(dst.Field(i), src.Field(i))
		}
	default:
		dst.Set(src)
	}
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
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() && !isFlat(f.Type) {
				return false
			}
		}
		return true
	}
	return true
}
