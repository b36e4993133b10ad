package client

import (
	"net/http"

	"golang.org/x/time/rate"

	"github.com/minicp/minicp/clock"
)

// headerTransport sets the headers every request carries: the bearer
// token and the user agent.
//
// Upstream: k8s.io/client-go/transport (bearerAuthRoundTripper,
// userAgentRoundTripper).
type headerTransport struct {
	token     string
	userAgent string
	next      http.RoundTripper
}

// RoundTrip implements http.RoundTripper. It clones the request, as the
// RoundTripper contract forbids changing the caller's.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if t.token != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", t.userAgent)
	}
	return t.next.RoundTrip(req)
}

// rateLimitTransport waits for a token before each request. The wait is on
// the clock and ends early, with the context's error, when the request's
// context ends.
//
// Upstream: k8s.io/client-go/rest (Request.tryThrottle).
type rateLimitTransport struct {
	limiter *rate.Limiter
	clock   clock.Clock
	next    http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *rateLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	now := t.clock.Now()
	r := t.limiter.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		timer := t.clock.NewTimer(d)
		select {
		case <-timer.C():
		case <-req.Context().Done():
			timer.Stop()
			// Give the token back so a cancelled request costs nothing.
			r.CancelAt(t.clock.Now())
			if req.Body != nil {
				req.Body.Close() // RoundTrip must close the body, even on error
			}
			return nil, req.Context().Err()
		}
	}
	return t.next.RoundTrip(req)
}

// closeIdler is the optional method of a RoundTripper that keeps
// connections (http.Transport has it); http.Client.CloseIdleConnections
// finds it by type assertion, so every wrapper forwards it.
type closeIdler interface{ CloseIdleConnections() }

var (
	_ closeIdler = (*headerTransport)(nil)
	_ closeIdler = (*rateLimitTransport)(nil)
)

// CloseIdleConnections forwards to the wrapped transport, if it keeps
// connections.
func (t *headerTransport) CloseIdleConnections() { closeIdle(t.next) }

// CloseIdleConnections forwards to the wrapped transport, if it keeps
// connections.
func (t *rateLimitTransport) CloseIdleConnections() { closeIdle(t.next) }

func closeIdle(rt http.RoundTripper) {
	if c, ok := rt.(closeIdler); ok {
		c.CloseIdleConnections()
	}
}
