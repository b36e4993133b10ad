package handlers

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
)

// TestAppendWatchEvent: a frame is byte for byte what json.Encoder writes
// for the same metav1.WatchEvent, whatever the type's spelling.
func TestAppendWatchEvent(t *testing.T) {
	object, err := json.Marshal(map[string]any{"html": "<b>&</b>", "text": "café \u2028", "n": 1})
	require.NoError(t, err, "marshal object")
	for _, typ := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error, `odd "type" <x>`} {
		var want bytes.Buffer
		require.NoError(t, json.NewEncoder(&want).Encode(metav1.WatchEvent{Type: string(typ), Object: object}), "encode %s", typ)
		got := appendWatchEvent([]byte("kept:"), typ, object)
		assert.Equal(t, "kept:"+want.String(), string(got), "frame of %s appended to a buffer", typ)
	}
}

// TestAppendProtobufWatchEvent: a protobuf frame is the message's length
// as 4 big-endian bytes, then a WatchEvent holding the object's bytes as
// they are, whatever their size.
func TestAppendProtobufWatchEvent(t *testing.T) {
	for _, size := range []int{0, 1, 127, 128, 70000} {
		object := bytes.Repeat([]byte{'x'}, size)
		got, err := appendProtobufWatchEvent([]byte("kept:"), watch.Modified, object)
		require.NoError(t, err, "appendProtobufWatchEvent(%d bytes)", size)
		require.True(t, bytes.HasPrefix(got, []byte("kept:")), "appends to the buffer")
		frame := got[len("kept:"):]
		require.Equal(t, len(frame)-4, int(binary.BigEndian.Uint32(frame)), "length prefix of a %d-byte object", size)
		var ev metav1.WatchEvent
		require.NoError(t, runtime.DecodeProtobufRaw(frame[4:], &ev), "decode the frame of a %d-byte object", size)
		assert.Equal(t, string(watch.Modified), ev.Type)
		assert.Equal(t, size, len(ev.Object), "object of a %d-byte object", size)
	}
}
