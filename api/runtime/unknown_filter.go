package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// unknownFilter copies a JSON document token by token, leaving out the
// object members the Go type at their place has no field for, and
// following exactly the types walkUnknown follows.
//
// It streams rather than parsing into a map and encoding that again: a
// map keeps only the last of duplicate keys, while encoding/json decodes
// every one of them into a struct field, so a parsed and re-encoded
// document would decode differently from the original the moment it had
// an unknown field.
type unknownFilter struct {
	dec *json.Decoder
	out bytes.Buffer
}

// value copies the next value, which decodes into t (nil: anything).
func (f *unknownFilter) value(t reflect.Type) error {
	t = checkedType(t)
	if t == nil {
		// Nothing below is checked: copy the value as it is.
		var raw json.RawMessage
		if err := f.dec.Decode(&raw); err != nil {
			return err
		}
		f.out.Write(raw)
		return nil
	}
	tok, err := f.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return f.object(t)
	case json.Delim('['):
		var elem reflect.Type
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			elem = t.Elem()
		}
		return f.array(elem)
	}
	scalar, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	f.out.Write(scalar)
	return nil
}

// object copies the members of an object whose '{' has been read.
func (f *unknownFilter) object(t reflect.Type) error {
	var fields map[string]reflect.Type
	if t.Kind() == reflect.Struct {
		fields = jsonFields(t)
	}
	f.out.WriteByte('{')
	first := true
	for f.dec.More() {
		tok, err := f.dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("object key is %v, not a string", tok)
		}
		var elem reflect.Type
		switch t.Kind() {
		case reflect.Struct:
			ft, known := fields[key]
			if !known {
				var skipped json.RawMessage
				if err := f.dec.Decode(&skipped); err != nil {
					return err
				}
				continue
			}
			elem = ft
		case reflect.Map:
			elem = t.Elem()
		}
		if !first {
			f.out.WriteByte(',')
		}
		first = false
		name, err := json.Marshal(key)
		if err != nil {
			return err
		}
		f.out.Write(name)
		f.out.WriteByte(':')
		if err := f.value(elem); err != nil {
			return err
		}
	}
	return f.closing('}')
}

// array copies the elements of an array whose '[' has been read.
func (f *unknownFilter) array(elem reflect.Type) error {
	f.out.WriteByte('[')
	for i := 0; f.dec.More(); i++ {
		if i > 0 {
			f.out.WriteByte(',')
		}
		if err := f.value(elem); err != nil {
			return err
		}
	}
	return f.closing(']')
}

// closing reads the delimiter that ends an object or array.
func (f *unknownFilter) closing(end json.Delim) error {
	tok, err := f.dec.Token()
	if err != nil {
		return err
	}
	if tok != end {
		return errors.New("malformed JSON")
	}
	f.out.WriteByte(byte(end))
	return nil
}
