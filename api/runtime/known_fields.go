package runtime

import "reflect"

// maxScanDepth bounds the recursion of allFieldsKnown; deeper documents
// take the generic path, which has its own limit.
const maxScanDepth = 1000

// allFieldsKnown reports whether every object key in the JSON document data
// is, byte for byte, the JSON name of a field of type t at that place: then
// UnknownFields would find nothing, and Decode can unmarshal into the typed
// object without first parsing data generically. It follows exactly the
// types walkUnknown follows. false means "not proven": unknown or
// case-mismatched keys, escaped keys, malformed JSON or deep nesting, all of
// which Decode leaves to the generic path.
func allFieldsKnown(data []byte, t reflect.Type) bool {
	s := fieldScanner{data: data}
	if !s.value(t, 0) {
		return false
	}
	s.skipSpace()
	return s.pos == len(s.data)
}

// fieldScanner walks JSON bytes without building values.
type fieldScanner struct {
	data []byte
	pos  int
}

// value scans one value that decodes into t; a nil t takes any value.
func (s *fieldScanner) value(t reflect.Type, depth int) bool {
	if depth > maxScanDepth {
		return false
	}
	t = checkedType(t)
	s.skipSpace()
	if s.pos >= len(s.data) {
		return false
	}
	switch s.data[s.pos] {
	case '{':
		return s.object(t, depth)
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		return s.array(elem, depth)
	case '"':
		_, _, ok := s.str()
		return ok
	default:
		return s.literal()
	}
}

// checkedType returns the type whose fields walkUnknown checks for a value
// of type t, or nil when it checks none below it (as for free-form values
// and types that decode themselves).
func checkedType(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		return nil
	}
	return t
}

func (s *fieldScanner) object(t reflect.Type, depth int) bool {
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = jsonFields(t)
		case reflect.Map:
			elem = t.Elem()
		}
	}
	s.pos++ // '{'
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return true
	}
	for {
		s.skipSpace()
		key, escaped, ok := s.str()
		if !ok || escaped {
			// An escaped key may spell a field name; leave it to
			// the generic path.
			return false
		}
		valueType := elem
		if fields != nil {
			// The conversion in the index expression does not allocate.
			ft, known := fields[string(key)]
			if !known {
				return false
			}
			valueType = ft
		}
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return false
		}
		s.pos++
		if !s.value(valueType, depth+1) {
			return false
		}
		if done, ok := s.separator('}'); !ok || done {
			return ok
		}
	}
}

func (s *fieldScanner) array(elem reflect.Type, depth int) bool {
	s.pos++ // '['
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return true
	}
	for {
		if !s.value(elem, depth+1) {
			return false
		}
		if done, ok := s.separator(']'); !ok || done {
			return ok
		}
	}
}

// separator consumes what follows a member or an element: ',' (more to
// come) or end, which closes the object or array (done). ok is false
// for anything else.
func (s *fieldScanner) separator(end byte) (done, ok bool) {
	s.skipSpace()
	if s.pos >= len(s.data) {
		return false, false
	}
	switch s.data[s.pos] {
	case ',':
		s.pos++
		return false, true
	case end:
		s.pos++
		return true, true
	}
	return false, false
}

// str scans a string and returns its raw bytes between the quotes, and
// whether it holds an escape (then the raw bytes are not its value).
func (s *fieldScanner) str() (raw []byte, escaped, ok bool) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return nil, false, false
	}
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch s.data[i] {
		case '"':
			s.pos = i + 1
			return s.data[start:i], escaped, true
		case '\\':
			escaped = true
			i++
		}
	}
	return nil, false, false
}

// literal skips a number, true, false or null; encoding/json checks its
// spelling.
func (s *fieldScanner) literal() bool {
	start := s.pos
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.pos > start
		}
		s.pos++
	}
	return s.pos > start
}

func (s *fieldScanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}
