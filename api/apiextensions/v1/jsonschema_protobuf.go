package v1

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// JSONSchemaProps writes its protobuf message by hand: it has doubles
// (maximum, minimum, multipleOf), which api/runtime's tag-driven codec does
// not carry, and it is recursive through the helper types. The layout is
// what upstream's generated Marshal writes (gogoproto, nullable=false,
// stable_marshaler): fields in number order; strings, bools and
// non-pointer messages always written; pointers only when non-nil; map
// entries in ascending key order; JSON.raw only when non-nil. The
// compat/apiextensions module compares the bytes with upstream's.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.pb.go.

// maxSchemaDepth bounds schema nesting while decoding, so a hostile body
// cannot recurse until the stack overflows. It is api/runtime's and
// protobuf-go's limit.
const maxSchemaDepth = 10000

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (s JSONSchemaProps) AppendProtobuf(b []byte) []byte { return appendSchema(b, &s) }

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler. It replaces s
// and returns an error, never panics, on malformed input.
func (s *JSONSchemaProps) UnmarshalProtobuf(data []byte) error {
	*s = JSONSchemaProps{}
	return decodeSchema(data, s, 0)
}

func appendString(b []byte, num protowire.Number, v string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, v)
}

func appendBool(b []byte, num protowire.Number, v bool) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, protowire.EncodeBool(v))
}

// appendMessage writes field num as a length-prefixed message whose body
// body appends.
func appendMessage(b []byte, num protowire.Number, body func([]byte) []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, body(nil))
}

func appendJSON(b []byte, num protowire.Number, j *JSON) []byte {
	return appendMessage(b, num, func(b []byte) []byte {
		if j.Raw != nil {
			b = protowire.AppendTag(b, 1, protowire.BytesType)
			b = protowire.AppendBytes(b, j.Raw)
		}
		return b
	})
}

func appendSchemaField(b []byte, num protowire.Number, s *JSONSchemaProps) []byte {
	return appendMessage(b, num, func(b []byte) []byte { return appendSchema(b, s) })
}

func appendSchemaMap(b []byte, num protowire.Number, m map[string]JSONSchemaProps) []byte {
	for _, k := range slices.Sorted(mapsKeys(m)) {
		v := m[k]
		b = appendMessage(b, num, func(b []byte) []byte {
			b = appendString(b, 1, k)
			return appendSchemaField(b, 2, &v)
		})
	}
	return b
}

func appendOrBool(b []byte, num protowire.Number, o *JSONSchemaPropsOrBool) []byte {
	return appendMessage(b, num, func(b []byte) []byte {
		b = appendBool(b, 1, o.Allows)
		if o.Schema != nil {
			b = appendSchemaField(b, 2, o.Schema)
		}
		return b
	})
}

func appendSchema(b []byte, s *JSONSchemaProps) []byte {
	b = appendString(b, 1, s.ID)
	b = appendString(b, 2, string(s.Schema))
	if s.Ref != nil {
		b = appendString(b, 3, *s.Ref)
	}
	b = appendString(b, 4, s.Description)
	b = appendString(b, 5, s.Type)
	b = appendString(b, 6, s.Format)
	b = appendString(b, 7, s.Title)
	if s.Default != nil {
		b = appendJSON(b, 8, s.Default)
	}
	b = appendDouble(b, 9, s.Maximum)
	b = appendBool(b, 10, s.ExclusiveMaximum)
	b = appendDouble(b, 11, s.Minimum)
	b = appendBool(b, 12, s.ExclusiveMinimum)
	b = appendInt(b, 13, s.MaxLength)
	b = appendInt(b, 14, s.MinLength)
	b = appendString(b, 15, s.Pattern)
	b = appendInt(b, 16, s.MaxItems)
	b = appendInt(b, 17, s.MinItems)
	b = appendBool(b, 18, s.UniqueItems)
	b = appendDouble(b, 19, s.MultipleOf)
	for i := range s.Enum {
		b = appendJSON(b, 20, &s.Enum[i])
	}
	b = appendInt(b, 21, s.MaxProperties)
	b = appendInt(b, 22, s.MinProperties)
	for _, r := range s.Required {
		b = appendString(b, 23, r)
	}
	if s.Items != nil {
		b = appendMessage(b, 24, func(b []byte) []byte {
			if s.Items.Schema != nil {
				b = appendSchemaField(b, 1, s.Items.Schema)
			}
			for i := range s.Items.JSONSchemas {
				b = appendSchemaField(b, 2, &s.Items.JSONSchemas[i])
			}
			return b
		})
	}
	for i := range s.AllOf {
		b = appendSchemaField(b, 25, &s.AllOf[i])
	}
	for i := range s.OneOf {
		b = appendSchemaField(b, 26, &s.OneOf[i])
	}
	for i := range s.AnyOf {
		b = appendSchemaField(b, 27, &s.AnyOf[i])
	}
	if s.Not != nil {
		b = appendSchemaField(b, 28, s.Not)
	}
	b = appendSchemaMap(b, 29, s.Properties)
	if s.AdditionalProperties != nil {
		b = appendOrBool(b, 30, s.AdditionalProperties)
	}
	b = appendSchemaMap(b, 31, s.PatternProperties)
	for _, k := range slices.Sorted(mapsKeys(s.Dependencies)) {
		v := s.Dependencies[k]
		b = appendMessage(b, 32, func(b []byte) []byte {
			b = appendString(b, 1, k)
			return appendMessage(b, 2, func(b []byte) []byte {
				if v.Schema != nil {
					b = appendSchemaField(b, 1, v.Schema)
				}
				for _, p := range v.Property {
					b = appendString(b, 2, p)
				}
				return b
			})
		})
	}
	if s.AdditionalItems != nil {
		b = appendOrBool(b, 33, s.AdditionalItems)
	}
	b = appendSchemaMap(b, 34, s.Definitions)
	if s.ExternalDocs != nil {
		b = appendMessage(b, 35, func(b []byte) []byte {
			b = appendString(b, 1, s.ExternalDocs.Description)
			return appendString(b, 2, s.ExternalDocs.URL)
		})
	}
	if s.Example != nil {
		b = appendJSON(b, 36, s.Example)
	}
	b = appendBool(b, 37, s.Nullable)
	if s.XPreserveUnknownFields != nil {
		b = appendBool(b, 38, *s.XPreserveUnknownFields)
	}
	b = appendBool(b, 39, s.XEmbeddedResource)
	b = appendBool(b, 40, s.XIntOrString)
	for _, k := range s.XListMapKeys {
		b = appendString(b, 41, k)
	}
	if s.XListType != nil {
		b = appendString(b, 42, *s.XListType)
	}
	if s.XMapType != nil {
		b = appendString(b, 43, *s.XMapType)
	}
	for i := range s.XValidations {
		r := &s.XValidations[i]
		b = appendMessage(b, 44, func(b []byte) []byte {
			b = appendString(b, 1, r.Rule)
			b = appendString(b, 2, r.Message)
			b = appendString(b, 3, r.MessageExpression)
			if r.Reason != nil {
				b = appendString(b, 4, string(*r.Reason))
			}
			b = appendString(b, 5, r.FieldPath)
			if r.OptionalOldSelf != nil {
				b = appendBool(b, 6, *r.OptionalOldSelf)
			}
			return b
		})
	}
	return b
}

func appendDouble(b []byte, num protowire.Number, v *float64) []byte {
	if v == nil {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(*v))
}

func appendInt(b []byte, num protowire.Number, v *int64) []byte {
	if v == nil {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(*v))
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// errWireType is returned for a field whose wire type is not its type's.
var errWireType = errors.New("wrong wire type")

// fieldError is a decoding error with the number of the innermost field
// it happened in. Only the innermost field is named: wrapping at every
// level would make the message of an error deep in a schema as long as
// the schema is deep, at every level.
type fieldError struct {
	num protowire.Number
	err error
}

func (e *fieldError) Error() string { return fmt.Sprintf("field %d: %v", e.num, e.err) }

func (e *fieldError) Unwrap() error { return e.err }

// walk calls fn for each field of the message in data; fn returns how many
// bytes of b (the field's value) it consumed, or -1 to have the field
// skipped.
func walk(data []byte, fn func(num protowire.Number, typ protowire.Type, b []byte) (int, error)) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		m, err := fn(num, typ, data)
		if err != nil {
			var fe *fieldError
			if errors.As(err, &fe) {
				return err
			}
			return &fieldError{num, err}
		}
		if m < 0 {
			if m = protowire.ConsumeFieldValue(num, typ, data); m < 0 {
				return &fieldError{num, protowire.ParseError(m)}
			}
		}
		data = data[m:]
	}
	return nil
}

func consumeBytes(typ protowire.Type, b []byte) ([]byte, int, error) {
	if typ != protowire.BytesType {
		return nil, 0, errWireType
	}
	v, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, 0, protowire.ParseError(n)
	}
	return v, n, nil
}

func consumeVarint(typ protowire.Type, b []byte) (uint64, int, error) {
	if typ != protowire.VarintType {
		return 0, 0, errWireType
	}
	v, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return 0, 0, protowire.ParseError(n)
	}
	return v, n, nil
}

func consumeDouble(typ protowire.Type, b []byte) (*float64, int, error) {
	if typ != protowire.Fixed64Type {
		return nil, 0, errWireType
	}
	v, n := protowire.ConsumeFixed64(b)
	if n < 0 {
		return nil, 0, protowire.ParseError(n)
	}
	f := math.Float64frombits(v)
	return &f, n, nil
}

func decodeJSON(data []byte) (JSON, error) {
	var j JSON
	err := walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num != 1 {
			return -1, nil
		}
		v, n, err := consumeBytes(typ, b)
		j.Raw = append([]byte{}, v...)
		return n, err
	})
	return j, err
}

// decodeSchemaMapEntry reads one map<string, JSONSchemaProps> entry into m.
func decodeSchemaMapEntry(data []byte, m *map[string]JSONSchemaProps, depth int) error {
	var key string
	var val JSONSchemaProps
	err := walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		switch num {
		case 1:
			v, n, err := consumeBytes(typ, b)
			key = string(v)
			return n, err
		case 2:
			v, n, err := consumeBytes(typ, b)
			if err != nil {
				return 0, err
			}
			return n, decodeSchema(v, &val, depth+1)
		}
		return -1, nil
	})
	if err != nil {
		return err
	}
	if *m == nil {
		*m = map[string]JSONSchemaProps{}
	}
	(*m)[key] = val
	return nil
}

func decodeOrBool(data []byte, depth int) (*JSONSchemaPropsOrBool, error) {
	o := &JSONSchemaPropsOrBool{}
	err := walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		switch num {
		case 1:
			v, n, err := consumeVarint(typ, b)
			o.Allows = protowire.DecodeBool(v)
			return n, err
		case 2:
			v, n, err := consumeBytes(typ, b)
			if err != nil {
				return 0, err
			}
			o.Schema = &JSONSchemaProps{}
			return n, decodeSchema(v, o.Schema, depth+1)
		}
		return -1, nil
	})
	return o, err
}
