package runtime

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

// pbEvent has the shape of metav1.WatchEvent: a string and a
// RawExtension. It is no Object: raw messages need no TypeMeta.
type pbEvent struct {
	Type   string          `protobuf:"bytes,1,opt,name=type"`
	Object json.RawMessage `protobuf:"bytes,2,opt,name=object"`
}

// TestAppendProtobufRaw: the message alone, no magic and no envelope,
// appended after what b holds; DecodeProtobufRaw reads it back.
func TestAppendProtobufRaw(t *testing.T) {
	object := []byte("k8s\x00body")
	var want []byte
	want = protowire.AppendTag(want, 1, protowire.BytesType)
	want = protowire.AppendString(want, "ADDED")
	want = protowire.AppendTag(want, 2, protowire.BytesType)
	var raw []byte
	raw = protowire.AppendTag(raw, 1, protowire.BytesType)
	raw = protowire.AppendBytes(raw, object)
	want = protowire.AppendBytes(want, raw)

	got, err := AppendProtobufRaw([]byte("kept"), &pbEvent{Type: "ADDED", Object: object})
	require.NoError(t, err, "AppendProtobufRaw")
	assert.Equal(t, append([]byte("kept"), want...), got, "AppendProtobufRaw")

	var ev pbEvent
	require.NoError(t, DecodeProtobufRaw(got[len("kept"):], &ev), "DecodeProtobufRaw")
	assert.Equal(t, pbEvent{Type: "ADDED", Object: object}, ev, "DecodeProtobufRaw")
}

func TestProtobufRawErrors(t *testing.T) {
	_, err := AppendProtobufRaw(nil, pbEvent{})
	assert.Error(t, err, "AppendProtobufRaw of a struct value")
	var nilEvent *pbEvent
	assert.Error(t, DecodeProtobufRaw(nil, nilEvent), "DecodeProtobufRaw into nil")
	var ev pbEvent
	assert.Error(t, DecodeProtobufRaw([]byte{0x0a, 0x05, 'A'}, &ev), "DecodeProtobufRaw of a truncated message")
}
