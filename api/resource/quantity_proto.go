package resource

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// In protobuf a Quantity is a message whose only field, 1, is its
// canonical string form ("100m", "1536Mi"), always written.
//
// Upstream: k8s.io/apimachinery/pkg/api/resource/quantity_proto.go.
const quantityString protowire.Number = 1

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (q Quantity) AppendProtobuf(b []byte) []byte {
	b = protowire.AppendTag(b, quantityString, protowire.BytesType)
	return protowire.AppendString(b, q.String())
}

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler. A string that
// does not parse is an error; a message without one is zero.
func (q *Quantity) UnmarshalProtobuf(data []byte) error {
	*q = Quantity{}
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return fmt.Errorf("quantity: %w", protowire.ParseError(n))
		}
		data = data[n:]
		if num != quantityString {
			if n = protowire.ConsumeFieldValue(num, typ, data); n < 0 {
				return fmt.Errorf("quantity: %w", protowire.ParseError(n))
			}
			data = data[n:]
			continue
		}
		if typ != protowire.BytesType {
			return fmt.Errorf("quantity: field 1 has wire type %d, want bytes", typ)
		}
		s, n := protowire.ConsumeString(data)
		if n < 0 {
			return fmt.Errorf("quantity: %w", protowire.ParseError(n))
		}
		data = data[n:]
		parsed, err := ParseQuantity(s)
		if err != nil {
			return err
		}
		*q = parsed
	}
	return nil
}
