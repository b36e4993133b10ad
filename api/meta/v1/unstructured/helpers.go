package unstructured

// NestedField returns the value at the path of field names in m, and
// whether every step of the path exists.
func NestedField(m map[string]any, fields ...string) (any, bool) {
	var v any = m
	for _, f := range fields {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[f]; !ok {
			return nil, false
		}
	}
	return v, true
}

// NestedString returns the string at the path, if there is one.
func NestedString(m map[string]any, fields ...string) (string, bool) {
	v, ok := NestedField(m, fields...)
	s, isString := v.(string)
	return s, ok && isString
}

// NestedInt64 returns the integer at the path, if there is one.
func NestedInt64(m map[string]any, fields ...string) (int64, bool) {
	v, ok := NestedField(m, fields...)
	i, isInt := v.(int64)
	return i, ok && isInt
}

// NestedMap returns the object at the path, if there is one. The map is
// m's own, not a copy.
func NestedMap(m map[string]any, fields ...string) (map[string]any, bool) {
	v, ok := NestedField(m, fields...)
	obj, isMap := v.(map[string]any)
	return obj, ok && isMap
}

// SetNestedField sets the value at the path, creating the objects on the
// way. A step that holds something other than an object is replaced.
func SetNestedField(m map[string]any, value any, fields ...string) {
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[f] = next
		}
		m = next
	}
	m[fields[len(fields)-1]] = value
}

// RemoveNestedField deletes the value at the path, if there is one.
func RemoveNestedField(m map[string]any, fields ...string) {
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, fields[len(fields)-1])
}
