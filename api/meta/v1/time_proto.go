package v1

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// On the wire in protobuf, Time and MicroTime are a Timestamp message
// {1: seconds since the Unix epoch, 2: nanoseconds}, and the zero time is
// the empty message. Time keeps seconds only, as its JSON form does, so it
// writes nanos as 0 and ignores them when reading; MicroTime keeps
// microseconds.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/time_proto.go and
// micro_time_proto.go.

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (t Time) AppendProtobuf(b []byte) []byte {
	if t.IsZero() {
		return b
	}
	return appendTimestamp(b, t.Unix(), 0)
}

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler.
func (t *Time) UnmarshalProtobuf(data []byte) error {
	if len(data) == 0 {
		t.Time = time.Time{}
		return nil
	}
	seconds, _, err := consumeTimestamp(data)
	if err != nil {
		return err
	}
	t.Time = time.Unix(seconds, 0).Local()
	return nil
}

// AppendProtobuf implements runtime.ProtobufMarshaler.
func (t MicroTime) AppendProtobuf(b []byte) []byte {
	if t.IsZero() {
		return b
	}
	return appendTimestamp(b, t.Unix(), int32(truncateMicro(int64(t.Nanosecond()))))
}

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler.
func (t *MicroTime) UnmarshalProtobuf(data []byte) error {
	if len(data) == 0 {
		t.Time = time.Time{}
		return nil
	}
	seconds, nanos, err := consumeTimestamp(data)
	if err != nil {
		return err
	}
	t.Time = time.Unix(seconds, truncateMicro(int64(nanos))).Local()
	return nil
}

func truncateMicro(nanos int64) int64 {
	return int64(time.Duration(nanos).Truncate(time.Microsecond))
}

// The field numbers of Timestamp.
const (
	timestampSeconds protowire.Number = 1
	timestampNanos   protowire.Number = 2
)

// appendTimestamp writes both fields, even when zero, as the generated
// Timestamp.Marshal does.
func appendTimestamp(b []byte, seconds int64, nanos int32) []byte {
	b = protowire.AppendTag(b, timestampSeconds, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(seconds))
	b = protowire.AppendTag(b, timestampNanos, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(int64(nanos)))
}

// consumeTimestamp reads a Timestamp, skipping fields it does not know.
func consumeTimestamp(data []byte) (seconds int64, nanos int32, err error) {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return 0, 0, fmt.Errorf("timestamp: %w", protowire.ParseError(n))
		}
		data = data[n:]
		if num != timestampSeconds && num != timestampNanos {
			if n = protowire.ConsumeFieldValue(num, typ, data); n < 0 {
				return 0, 0, fmt.Errorf("timestamp: %w", protowire.ParseError(n))
			}
			data = data[n:]
			continue
		}
		if typ != protowire.VarintType {
			return 0, 0, fmt.Errorf("timestamp: field %d has wire type %d, want varint", num, typ)
		}
		v, n := protowire.ConsumeVarint(data)
		if n < 0 {
			return 0, 0, fmt.Errorf("timestamp: %w", protowire.ParseError(n))
		}
		data = data[n:]
		if num == timestampSeconds {
			seconds = int64(v)
		} else {
			nanos = int32(v)
		}
	}
	return seconds, nanos, nil
}
