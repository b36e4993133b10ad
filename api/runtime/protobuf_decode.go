package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxProtobufDepth bounds message nesting while decoding. Kubernetes objects
// nest about fifteen deep; the bound only matters for recursive types,
// where a hostile body could otherwise recurse until the stack overflows,
// which no recover catches. It is protobuf-go's default recursion limit.
const maxProtobufDepth = 10000

// decode merges the message in data into struct v: scalars are replaced,
// repeated fields and maps appended to, nested messages merged, as
// protobuf's generated Unmarshal does.
func (mi *messageInfo) decode(data []byte, v reflect.Value, depth int) error {
	if depth > maxProtobufDepth {
		return errors.New("message nested too deeply")
	}
	return walkFields(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		f := mi.byNum[num]
		if f == nil {
			return skipField(num, typ, b)
		}
		n, err := f.decode(v.Field(f.index), typ, b, depth)
		if err != nil {
			return 0, fieldErr(f.name, err)
		}
		return n, nil
	})
}

// decode consumes one occurrence of f from b into fv and returns the bytes
// it used.
func (f *fieldInfo) decode(fv reflect.Value, typ protowire.Type, b []byte, depth int) (int, error) {
	switch f.card {
	case cardSingle:
		return f.val.consume(fv, typ, b, depth)
	case cardPointer:
		if fv.IsNil() {
			fv.Set(reflect.New(f.val.typ))
		}
		return f.val.consume(fv.Elem(), typ, b, depth)
	case cardRepeated:
		return f.val.consumeElems(fv, typ, b, depth)
	case cardWrapped:
		val, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		if fv.IsNil() {
			// Present but empty is an empty list, not a missing one.
			fv.Set(reflect.MakeSlice(fv.Type(), 0, 0))
		}
		return n, walkFields(val, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
			if num != 1 {
				return skipField(num, typ, b)
			}
			return f.val.consumeElems(fv, typ, b, depth)
		})
	case cardMap:
		val, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		// A missing key or value is the zero value, as in protobuf.
		key := reflect.New(f.key.typ).Elem()
		elem := reflect.New(f.val.typ).Elem()
		err = walkFields(val, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
			switch num {
			case 1:
				return f.key.consume(key, typ, b, depth)
			case 2:
				return f.val.consume(elem, typ, b, depth)
			}
			return skipField(num, typ, b)
		})
		if err != nil {
			return 0, err
		}
		if fv.IsNil() {
			fv.Set(reflect.MakeMap(fv.Type()))
		}
		fv.SetMapIndex(key, elem)
		return n, nil
	}
	return 0, fmt.Errorf("unknown cardinality %d", f.card)
}

// consumeElems appends one element, or a packed run of varint elements, from
// b to slice fv.
func (c valueCodec) consumeElems(fv reflect.Value, typ protowire.Type, b []byte, depth int) (int, error) {
	if typ == protowire.BytesType && c.packable() {
		packed, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		for len(packed) > 0 {
			elem := reflect.New(c.typ).Elem()
			m, err := c.consume(elem, protowire.VarintType, packed, depth)
			if err != nil {
				return 0, err
			}
			packed = packed[m:]
			fv.Set(reflect.Append(fv, elem))
		}
		return n, nil
	}
	elem := reflect.New(c.typ).Elem()
	n, err := c.consume(elem, typ, b, depth)
	if err != nil {
		return 0, err
	}
	fv.Set(reflect.Append(fv, elem))
	return n, nil
}

// consume reads one value of wire type typ from b into v, which must be
// settable, and returns the bytes it used.
func (c valueCodec) consume(v reflect.Value, typ protowire.Type, b []byte, depth int) (int, error) {
	if want := c.wireType(); typ != want {
		return 0, fmt.Errorf("wire type %d, want %d", typ, want)
	}
	if c.wireType() == protowire.VarintType {
		x, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return 0, protowire.ParseError(n)
		}
		switch c.kind {
		case kindBool:
			v.SetBool(x != 0)
		case kindInt:
			// Truncates to the field's size, as generated code does.
			v.SetInt(int64(x))
		case kindUint:
			v.SetUint(x)
		}
		return n, nil
	}
	val, n, err := consumeBytes(typ, b)
	if err != nil {
		return 0, err
	}
	switch c.kind {
	case kindString:
		v.SetString(string(val))
	case kindBytes:
		v.SetBytes(append([]byte{}, val...))
	case kindMessage:
		err = c.msg.decode(val, v, depth+1)
	case kindCustom:
		err = v.Addr().Interface().(ProtobufUnmarshaler).UnmarshalProtobuf(val)
	case kindJSON:
		err = decodeJSONValue(v, val)
	case kindRaw:
		var raw []byte
		if raw, err = rawField(val); err == nil && raw != nil {
			v.SetBytes(append([]byte{}, raw...))
		}
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// decodeJSONValue reads a FieldsV1-style message, {1: JSON}, into v. An
// empty message is an empty object, since only a present value is written.
func decodeJSONValue(v reflect.Value, msg []byte) error {
	raw, err := rawField(msg)
	if err != nil {
		return err
	}
	if len(raw) == 0 {
		if v.Kind() == reflect.Map {
			v.Set(reflect.MakeMap(v.Type()))
		}
		return nil
	}
	p := reflect.New(v.Type())
	if err := json.Unmarshal(raw, p.Interface()); err != nil {
		return fmt.Errorf("raw JSON: %w", err)
	}
	v.Set(p.Elem())
	return nil
}

// rawField returns field 1 of a RawExtension or FieldsV1 message, nil when
// absent. It aliases msg.
func rawField(msg []byte) ([]byte, error) {
	var raw []byte
	err := walkFields(msg, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num != 1 {
			return skipField(num, typ, b)
		}
		val, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		raw = val
		return n, nil
	})
	return raw, err
}

// walkFields calls fn for each field of the message in data, with the bytes
// after the field's tag; fn returns how many of them the field's value used.
func walkFields(data []byte, fn func(num protowire.Number, typ protowire.Type, b []byte) (int, error)) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		m, err := fn(num, typ, data)
		if err != nil {
			return err
		}
		data = data[m:]
	}
	return nil
}

// skipField consumes the value of a field the type does not know.
func skipField(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
	n := protowire.ConsumeFieldValue(num, typ, b)
	if n < 0 {
		return 0, protowire.ParseError(n)
	}
	return n, nil
}

func consumeBytes(typ protowire.Type, b []byte) ([]byte, int, error) {
	if typ != protowire.BytesType {
		return nil, 0, fmt.Errorf("wire type %d, want %d", typ, protowire.BytesType)
	}
	val, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, 0, protowire.ParseError(n)
	}
	return val, n, nil
}

// protoFieldError says which field, as a dotted path of tag names, a
// decoding or encoding error is in.
type protoFieldError struct {
	path string
	err  error
}

func (e *protoFieldError) Error() string { return "field " + e.path + ": " + e.err.Error() }
func (e *protoFieldError) Unwrap() error { return e.err }

// fieldErr puts name in front of err's field path.
func fieldErr(name string, err error) error {
	if fe, ok := err.(*protoFieldError); ok {
		return &protoFieldError{path: name + "." + fe.path, err: fe.err}
	}
	return &protoFieldError{path: name, err: err}
}
