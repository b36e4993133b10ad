package runtime

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// encode appends the fields of struct v to b in field-number order.
func (mi *messageInfo) encode(b []byte, v reflect.Value) ([]byte, error) {
	var err error
	for _, f := range mi.fields {
		if b, err = f.encode(b, v.Field(f.index)); err != nil {
			return nil, fieldErr(f.name, err)
		}
	}
	return b, nil
}

func (f *fieldInfo) encode(b []byte, fv reflect.Value) ([]byte, error) {
	switch f.card {
	case cardSingle:
		// FieldsV1 and []byte are pointers or nil-checked upstream.
		if (f.val.kind == kindJSON || f.val.kind == kindBytes) && fv.IsNil() {
			return b, nil
		}
		return f.val.appendField(b, f.num, fv)
	case cardPointer:
		if fv.IsNil() {
			return b, nil
		}
		return f.val.appendField(b, f.num, fv.Elem())
	case cardRepeated:
		var err error
		for i := range fv.Len() {
			if b, err = f.val.appendField(b, f.num, fv.Index(i)); err != nil {
				return nil, err
			}
		}
		return b, nil
	case cardWrapped:
		if fv.IsNil() {
			return b, nil
		}
		b = protowire.AppendTag(b, f.num, protowire.BytesType)
		return appendLengthPrefixed(b, func(b []byte) ([]byte, error) {
			var err error
			for i := range fv.Len() {
				if b, err = f.val.appendField(b, 1, fv.Index(i)); err != nil {
					return nil, err
				}
			}
			return b, nil
		})
	case cardMap:
		keys := fv.MapKeys()
		// Sorted, as Kubernetes' stable marshaler sorts them, so equal maps
		// give equal bytes.
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		var err error
		for _, k := range keys {
			b = protowire.AppendTag(b, f.num, protowire.BytesType)
			b, err = appendLengthPrefixed(b, func(b []byte) ([]byte, error) {
				b, err := f.key.appendField(b, 1, k)
				if err != nil {
					return nil, err
				}
				v := fv.MapIndex(k)
				// A nil []byte value is left out, as upstream's generated
				// code does for map<string, bytes> (a Secret's data).
				if f.val.kind == kindBytes && v.IsNil() {
					return b, nil
				}
				return f.val.appendField(b, 2, v)
			})
			if err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	return b, nil
}

// appendField appends v as field num.
func (c valueCodec) appendField(b []byte, num protowire.Number, v reflect.Value) ([]byte, error) {
	b = protowire.AppendTag(b, num, c.wireType())
	switch c.kind {
	case kindString:
		return protowire.AppendString(b, v.String()), nil
	case kindBytes:
		return protowire.AppendBytes(b, v.Bytes()), nil
	case kindBool:
		return protowire.AppendVarint(b, protowire.EncodeBool(v.Bool())), nil
	case kindInt:
		return protowire.AppendVarint(b, uint64(v.Int())), nil
	case kindUint:
		return protowire.AppendVarint(b, v.Uint()), nil
	case kindMessage:
		return appendLengthPrefixed(b, func(b []byte) ([]byte, error) { return c.msg.encode(b, v) })
	case kindCustom:
		m := v.Interface().(ProtobufMarshaler)
		return appendLengthPrefixed(b, func(b []byte) ([]byte, error) { return m.AppendProtobuf(b), nil })
	case kindJSON:
		raw, err := json.Marshal(v.Interface())
		if err != nil {
			return nil, err
		}
		return appendLengthPrefixed(b, func(b []byte) ([]byte, error) { return appendRaw(b, raw), nil })
	case kindRaw:
		return appendLengthPrefixed(b, func(b []byte) ([]byte, error) { return appendRaw(b, v.Bytes()), nil })
	}
	return b, nil
}

// appendRaw appends the body of a RawExtension or FieldsV1: raw as field 1,
// left out when nil.
func appendRaw(b, raw []byte) []byte {
	if raw == nil {
		return b
	}
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

// appendLengthPrefixed appends the length of what body appends, then it.
// The body is written in place after a one-byte length, then moved up in
// the rare case its length needs more bytes, so nested messages are not
// encoded twice to learn their sizes.
func appendLengthPrefixed(b []byte, body func([]byte) ([]byte, error)) ([]byte, error) {
	start := len(b)
	b = append(b, 0)
	b, err := body(b)
	if err != nil {
		return nil, err
	}
	n := len(b) - start - 1
	size := protowire.SizeVarint(uint64(n))
	if size > 1 {
		b = append(b, make([]byte, size-1)...)
		copy(b[start+size:], b[start+1:start+1+n])
	}
	protowire.AppendVarint(b[start:start], uint64(n))
	return b, nil
}
