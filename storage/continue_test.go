package storage_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/storage"
)

func TestContinueRoundTrip(t *testing.T) {
	token, err := storage.EncodeContinue("/registry/pods/default/web\x00", "/registry/pods/", 42)
	require.NoError(t, err, "EncodeContinue")
	raw, err := base64.RawURLEncoding.DecodeString(token)
	require.NoError(t, err, "token %q is unpadded base64url", token)
	assert.JSONEq(t, `{"v":"meta.k8s.io/v1","rv":42,"start":"default/web\u0000"}`, string(raw), "token JSON")

	// The token is relative to the list's prefix: decoding it under another
	// prefix (another cluster's, say) starts there.
	key, rv, err := storage.DecodeContinue(token, "/other/pods/")
	require.NoError(t, err, "DecodeContinue(%q)", token)
	assert.Equal(t, "/other/pods/default/web\x00", key, "start key")
	assert.Equal(t, int64(42), rv, "revision")

	_, err = storage.EncodeContinue("/registry/nodes/n1", "/registry/pods/", 42)
	assert.Error(t, err, "EncodeContinue of a key outside the prefix")
}

func TestDecodeContinueInvalid(t *testing.T) {
	encode := func(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
	tests := []struct {
		name  string
		token string
	}{
		{"not base64", "%%%"},
		{"padded base64", base64.URLEncoding.EncodeToString([]byte(`{"v":"meta.k8s.io/v1","rv":1,"start":"a"}`))},
		{"not json", encode("nope")},
		{"other version", encode(`{"v":"meta.k8s.io/v2","rv":1,"start":"a"}`)},
		{"no revision", encode(`{"v":"meta.k8s.io/v1","start":"a"}`)},
		{"no start", encode(`{"v":"meta.k8s.io/v1","rv":1}`)},
		{"climbs out of the prefix", encode(`{"v":"meta.k8s.io/v1","rv":1,"start":"../secrets/x"}`)},
		{"climbs out in the middle", encode(`{"v":"meta.k8s.io/v1","rv":1,"start":"a/../../x"}`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := storage.DecodeContinue(tc.token, "/registry/pods/")
			assert.ErrorIs(t, err, storage.ErrInvalidContinue, "DecodeContinue(%q)", tc.token)
		})
	}
}

func TestDecodeContinueLatest(t *testing.T) {
	token, err := storage.EncodeContinue("/p/a", "/p/", -1)
	require.NoError(t, err, "EncodeContinue")
	_, rv, err := storage.DecodeContinue(token, "/p/")
	require.NoError(t, err, "DecodeContinue of an rv -1 token")
	assert.Equal(t, int64(-1), rv, "rv -1 means the latest revision")
}
