package v1

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

func timestamp(seconds int64, nanos int32) []byte { return appendTimestamp(nil, seconds, nanos) }

func TestTimeProtobuf(t *testing.T) {
	tests := []struct {
		name string
		in   Time
		want []byte
	}{
		{name: "zero is the empty message", in: Time{}, want: nil},
		{name: "nanos are not written", in: Time{time.Unix(1700000000, 999)}, want: timestamp(1700000000, 0)},
		{name: "the epoch still writes both fields", in: Time{time.Unix(0, 0)}, want: []byte{0x08, 0x00, 0x10, 0x00}},
		{name: "before the epoch", in: Time{time.Unix(-1, 0)}, want: timestamp(-1, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.AppendProtobuf(nil)
			assert.Equal(t, tc.want, got, "AppendProtobuf(%v)", tc.in)
			var back Time
			require.NoError(t, back.UnmarshalProtobuf(got))
			assert.True(t, back.Equal(tc.in.Truncate(time.Second)), "UnmarshalProtobuf gave %v, want %v", back, tc.in)
		})
	}
}

func TestTimeUnmarshalProtobuf(t *testing.T) {
	var tm Time
	require.NoError(t, tm.UnmarshalProtobuf(timestamp(1700000000, 5)))
	assert.Equal(t, time.Unix(1700000000, 0).Local(), tm.Time, "nanos are dropped, as Time's JSON drops them")

	// Unknown fields are skipped.
	data := protowire.AppendTag(timestamp(10, 0), 7, protowire.BytesType)
	data = protowire.AppendString(data, "later")
	require.NoError(t, tm.UnmarshalProtobuf(data))
	assert.Equal(t, int64(10), tm.Unix())

	require.NoError(t, tm.UnmarshalProtobuf(nil))
	assert.True(t, tm.IsZero(), "the empty message is the zero time")

	for name, bad := range map[string][]byte{
		"truncated varint":  {0x08, 0x80},
		"seconds as bytes":  {0x0a, 0x00},
		"bad tag":           {0x00},
		"truncated unknown": {0x3a, 0x05, 'a'},
		"nanos as fixed32":  {0x15, 0, 0, 0, 0},
		"truncated nanos":   {0x08, 0x01, 0x10},
	} {
		assert.Error(t, tm.UnmarshalProtobuf(bad), "UnmarshalProtobuf(%s)", name)
	}
}

func TestMicroTimeProtobuf(t *testing.T) {
	in := MicroTime{time.Unix(1700000000, 123456789)}
	got := in.AppendProtobuf(nil)
	assert.Equal(t, timestamp(1700000000, 123456000), got, "nanos are truncated to microseconds")
	var back MicroTime
	require.NoError(t, back.UnmarshalProtobuf(got))
	assert.Equal(t, time.Unix(1700000000, 123456000).Local(), back.Time)

	require.NoError(t, back.UnmarshalProtobuf(timestamp(5, 999)))
	assert.Equal(t, time.Unix(5, 0).Local(), back.Time, "sub-microsecond nanos are dropped when reading too")

	assert.Empty(t, MicroTime{}.AppendProtobuf(nil))
	require.NoError(t, back.UnmarshalProtobuf(nil))
	assert.True(t, back.IsZero())
	assert.Error(t, back.UnmarshalProtobuf([]byte{0x10}))
}
