package resource

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

func quantityMessage(s string) []byte {
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func TestQuantityProtobuf(t *testing.T) {
	for _, s := range []string{"0", "100m", "1536Mi", "2", "1G", "5e3", "-3", "64Ki"} {
		q := MustParse(s)
		got := q.AppendProtobuf(nil)
		assert.Equal(t, quantityMessage(s), got, "AppendProtobuf(%s)", s)
		var back Quantity
		require.NoError(t, back.UnmarshalProtobuf(got), "UnmarshalProtobuf(%s)", s)
		assert.Equal(t, q, back, "UnmarshalProtobuf(%s)", s)
	}
	// The canonical form is written, as upstream writes it.
	assert.Equal(t, quantityMessage("1536Mi"), MustParse("1.5Gi").AppendProtobuf(nil))
	assert.Equal(t, quantityMessage("0"), Quantity{}.AppendProtobuf(nil), "zero is written too")
}

func TestQuantityUnmarshalProtobuf(t *testing.T) {
	q := MustParse("5")
	require.NoError(t, q.UnmarshalProtobuf(nil))
	assert.True(t, q.IsZero(), "the empty message is zero")

	withUnknown := protowire.AppendTag(quantityMessage("250m"), 9, protowire.VarintType)
	withUnknown = protowire.AppendVarint(withUnknown, 1)
	require.NoError(t, q.UnmarshalProtobuf(withUnknown))
	assert.Equal(t, MustParse("250m"), q)

	for name, bad := range map[string][]byte{
		"not a quantity":    quantityMessage("lots"),
		"string as varint":  {0x08, 0x01},
		"truncated string":  {0x0a, 0x05, '1'},
		"bad tag":           {0x00},
		"truncated unknown": {0x12, 0x03},
	} {
		assert.Error(t, q.UnmarshalProtobuf(bad), "UnmarshalProtobuf(%s)", name)
	}
}
