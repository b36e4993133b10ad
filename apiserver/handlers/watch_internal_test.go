package handlers

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
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
