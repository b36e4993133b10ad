package healthz_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/controllers/healthz"
)

func TestHandler(t *testing.T) {
	failing := func(*http.Request) error { return errors.New("informers not synced") }
	tests := []struct {
		name     string
		checks   []healthz.NamedCheck
		url      string
		wantCode int
		wantBody string
	}{
		{name: "no checks", url: "/readyz", wantCode: 200, wantBody: "ok"},
		{name: "passing", checks: []healthz.NamedCheck{{Name: "ping", Check: healthz.Ping}}, url: "/readyz",
			wantCode: 200, wantBody: "ok"},
		{name: "verbose", checks: []healthz.NamedCheck{{Name: "ping", Check: healthz.Ping}}, url: "/readyz?verbose",
			wantCode: 200, wantBody: "[+]ping ok\nreadyz check passed\n"},
		{name: "failing", checks: []healthz.NamedCheck{{Name: "ping", Check: healthz.Ping}, {Name: "informers", Check: failing}},
			url: "/readyz", wantCode: 500, wantBody: "[+]ping ok\n[-]informers failed: informers not synced\nreadyz check failed\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := healthz.Handler("readyz", func() []healthz.NamedCheck { return tc.checks })
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, tc.url, nil))
			assert.Equal(t, tc.wantCode, w.Code, "GET %s", tc.url)
			assert.Equal(t, tc.wantBody, w.Body.String(), "GET %s", tc.url)
		})
	}
}
