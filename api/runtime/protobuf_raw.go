package runtime

import "fmt"

// AppendProtobufRaw appends the protobuf message of the struct v points
// to, laid out by its `protobuf` struct tags, to b and returns the
// extended slice: the message alone, without EncodeProtobuf's magic
// prefix and runtime.Unknown envelope. It is what a Kubernetes watch
// stream in protobuf carries in each frame: a metav1.WatchEvent, whose
// object is an enveloped body (EncodeProtobuf) in a RawExtension.
//
// v must be a non-nil pointer to a struct; it need not be an Object.
// AppendProtobufRaw is safe for concurrent use.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/serializer/protobuf (RawSerializer.Encode).
func AppendProtobufRaw(b []byte, v any) ([]byte, error) {
	sv, err := structValue(v)
	if err != nil {
		return nil, fmt.Errorf("encode protobuf: %w", err)
	}
	mi, err := messageFor(sv.Type())
	if err != nil {
		return nil, fmt.Errorf("encode protobuf %T: %w", v, err)
	}
	if b, err = mi.encode(b, sv); err != nil {
		return nil, fmt.Errorf("encode protobuf %T: %w", v, err)
	}
	return b, nil
}

// DecodeProtobufRaw reads a message written by AppendProtobufRaw into the
// struct into points to, replacing it entirely. Unknown fields are
// skipped; malformed input is an error, never a panic. data is not
// retained.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/serializer/protobuf (RawSerializer.Decode).
func DecodeProtobufRaw(data []byte, into any) error {
	sv, err := structValue(into)
	if err != nil {
		return fmt.Errorf("decode protobuf: %w", err)
	}
	mi, err := messageFor(sv.Type())
	if err != nil {
		return fmt.Errorf("decode protobuf %T: %w", into, err)
	}
	sv.SetZero()
	if err := mi.decode(data, sv, 0); err != nil {
		return fmt.Errorf("decode protobuf %T: %w", into, err)
	}
	return nil
}
