package handlers

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
)

// TestWatchTimeout: a missing or zero timeoutSeconds gives the server's
// default, between one and two minRequestTimeouts; others are taken as
// they are, and malformed ones are 400.
func TestWatchTimeout(t *testing.T) {
	for _, query := range []string{"", "?timeoutSeconds=0"} {
		for range 50 {
			got, err := watchTimeout(httptest.NewRequest("GET", "/api/v1/pods"+query, nil))
			require.NoError(t, err, "watchTimeout(%q)", query)
			assert.GreaterOrEqual(t, got, minRequestTimeout, "timeout of %q", query)
			assert.Less(t, got, 2*minRequestTimeout, "timeout of %q", query)
		}
	}
	got, err := watchTimeout(httptest.NewRequest("GET", "/api/v1/pods?timeoutSeconds=5", nil))
	require.NoError(t, err)
	assert.Equal(t, 5*time.Second, got)
	for _, bad := range []string{"-1", "x"} {
		_, err := watchTimeout(httptest.NewRequest("GET", "/api/v1/pods?timeoutSeconds="+bad, nil))
		assert.True(t, apierrors.IsBadRequest(err), "timeoutSeconds=%s: %v", bad, err)
	}
}
