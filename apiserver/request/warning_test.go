package request_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver/request"
)

// TestWarnings: a warning becomes one Warning header however often it is
// added, and one added without a recorder is dropped.
func TestWarnings(t *testing.T) {
	h := http.Header{}
	ctx := request.WithWarningRecorder(context.Background(), request.NewHeaderWarnings(h))
	request.AddWarning(ctx, `would violate "x"`)
	request.AddWarning(ctx, `would violate "x"`)
	request.AddWarning(ctx, "another")
	assert.Equal(t, []string{`299 - "would violate \"x\""`, `299 - "another"`}, h.Values("Warning"))

	request.AddWarning(context.Background(), "nowhere")
}

// TestAuditAnnotations: the first value of a key wins, and an unaudited
// request drops them.
func TestAuditAnnotations(t *testing.T) {
	ctx, a := request.WithAuditAnnotations(context.Background())
	assert.Nil(t, a.Map(), "none yet")
	request.AddAuditAnnotation(ctx, "k", "first")
	request.AddAuditAnnotation(ctx, "k", "second")
	assert.Equal(t, map[string]string{"k": "first"}, a.Map())

	request.AddAuditAnnotation(context.Background(), "k", "dropped")
}
