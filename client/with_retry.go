package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/minicp/minicp/clock"
)

// maxRetries is how many times a request the server asked to retry later
// is sent again, after the first attempt: client-go's default. With the
// API server's Retry-After of one second for a full in-flight limit, that
// rides out ten seconds of overload before giving up.
//
// Upstream: k8s.io/client-go/rest (NewRequest, maxRetries: 10).
const maxRetries = 10

// withRetry decides, after each attempt of one request, whether to send
// it again, and waits the server's Retry-After before the next attempt.
// A response is retried when the server says to try again later: a 429
// TooManyRequests, or any 5xx, that carries a Retry-After header of whole
// seconds. Without the header the server gave no sign that trying again
// would help, and the error goes to the caller, as in client-go.
//
// Only requests whose body can be sent again are retried. Every request
// of this package holds its body as bytes (request.body), so all are;
// a request that streamed its body would have to opt out here. A watch
// is retried only until the server accepts it: once the stream has
// started, its end is the consumer's to handle (it watches again from
// its last resourceVersion), never a silent resend.
//
// The wait is on the client's clock, so a test with a clocktest.Fake
// steps it. It is not safe for concurrent use: one per request.
//
// Upstream: k8s.io/client-go/rest (withRetry.IsNextRetry, withRetry.Before,
// checkWait, retryAfterSeconds).
type withRetry struct {
	clock      clock.Clock
	maxRetries int
	// attempts counts the attempts made so far.
	attempts int
}

// isNextRetry reports whether the attempt that got resp should be
// followed by another, and after how long. resp's body must already be
// drained and closed.
func (r *withRetry) isNextRetry(resp *http.Response) (time.Duration, bool) {
	r.attempts++
	if resp == nil || r.attempts > r.maxRetries {
		return 0, false
	}
	seconds, ok := checkWait(resp)
	if !ok {
		return 0, false
	}
	return time.Duration(seconds) * time.Second, true
}

// wait blocks for d on the clock, or until ctx ends, which it returns as
// ctx's error. A zero d retries at once.
func (r *withRetry) wait(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	timer := r.clock.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wrapPreviousError reports that the retries ended with err (the
// context's), keeping the last attempt's error too, so that both
// errors.Is(err, context.Canceled) and apierrors.IsTooManyRequests hold.
//
// Upstream: k8s.io/client-go/rest (withRetry.WrapPreviousError).
func (r *withRetry) wrapPreviousError(err, previous error) error {
	return fmt.Errorf("%w - error from a previous attempt: %w", err, previous)
}

// checkWait returns the seconds to wait and true when resp asks for a
// retry: a 429 or a 5xx with a Retry-After header.
//
// Upstream: k8s.io/client-go/rest (checkWait).
func checkWait(resp *http.Response) (int, bool) {
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests, code >= http.StatusInternalServerError:
	default:
		return 0, false
	}
	return retryAfterSeconds(resp)
}

// retryAfterSeconds returns the Retry-After header as whole seconds, and
// false when it is missing or not a non-negative number. (HTTP also allows
// a date there; the API server never sends one, and client-go ignores it.)
//
// Upstream: k8s.io/client-go/rest (retryAfterSeconds).
func retryAfterSeconds(resp *http.Response) (int, bool) {
	h := resp.Header.Get("Retry-After")
	if h == "" {
		return 0, false
	}
	seconds, err := strconv.Atoi(h)
	if err != nil || seconds < 0 {
		return 0, false
	}
	return seconds, true
}
