package client_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// TestNonStatusErrorBodies checks that a response without a Status (a
// proxy's page, a bare text error) still becomes a StatusError with the
// HTTP code and the reason client-go gives that code.
func TestNonStatusErrorBodies(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		body   string
		reason metav1.StatusReason
		is     func(error) bool
	}{
		{name: "text 404", code: http.StatusNotFound, body: "404 page not found", reason: metav1.StatusReasonNotFound, is: apierrors.IsNotFound},
		{name: "html 502", code: http.StatusBadGateway, body: "<html>bad gateway</html>", reason: metav1.StatusReasonInternalError, is: apierrors.IsInternalError},
		{name: "empty 409", code: http.StatusConflict, reason: metav1.StatusReasonConflict, is: apierrors.IsConflict},
		{name: "text 410", code: http.StatusGone, body: "gone", reason: metav1.StatusReasonGone, is: apierrors.IsGone},
		{name: "json that is not a Status", code: http.StatusForbidden, body: `{"error":"no"}`, reason: metav1.StatusReasonForbidden, is: apierrors.IsForbidden},
		{name: "429", code: http.StatusTooManyRequests, body: "slow down", reason: metav1.StatusReasonTooManyRequests, is: apierrors.IsTooManyRequests},
		{name: "418", code: http.StatusTeapot, body: "teapot", reason: metav1.StatusReasonUnknown, is: func(err error) bool { return err != nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.WriteHeader(tc.code)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			cs := newClientset(t, client.Config{Host: srv.URL})
			_, err := cs.Pods("default").Get(t.Context(), "p", client.GetOptions{})
			require.Error(t, err)
			var se *apierrors.StatusError
			require.ErrorAs(t, err, &se, "a %d without a Status", tc.code)
			assert.Equal(t, int32(tc.code), se.ErrStatus.Code)
			assert.Equal(t, tc.reason, se.ErrStatus.Reason)
			assert.True(t, tc.is(err), "classified: %v", err)
			assert.Contains(t, err.Error(), tc.body, "the body is in the message")
		})
	}
}

// TestStatusErrorsRoundTrip checks that a Status the server sends comes
// back whole: code, reason, message and details.
func TestStatusErrorsRoundTrip(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		_, err := cs.Pods("default").Get(t.Context(), "missing", client.GetOptions{})
		var se *apierrors.StatusError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, int32(http.StatusNotFound), se.ErrStatus.Code)
		assert.Equal(t, metav1.StatusReasonNotFound, se.ErrStatus.Reason)
		assert.Equal(t, `pods "missing" not found`, se.ErrStatus.Message)
		require.NotNil(t, se.ErrStatus.Details)
		assert.Equal(t, "missing", se.ErrStatus.Details.Name)
		assert.Equal(t, "pods", se.ErrStatus.Details.Kind)
	})
}

func TestUnauthorized(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.connect(t)
			cfg.BearerToken = "wrong"
			cs := newClientset(t, cfg)
			_, err := cs.Namespaces().Get(t.Context(), "default", client.GetOptions{})
			assert.True(t, apierrors.IsUnauthorized(err), "a wrong token: %v", err)
		})
	}
}
