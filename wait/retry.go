package wait

import (
	"context"
	"errors"
)

// OnError calls fn until it succeeds or fails with an error retriable
// refuses, at most backoff.Steps times in all (zero means once), waiting
// backoff's delays between calls. It returns fn's last error (nil on
// success), joined with ctx's error when ctx ended while waiting. backoff
// is a copy: the caller's value is not advanced. A backoff with no
// Initial delay retries at once, for conflicts where reading again is
// the whole remedy.
//
// It is the tree's one retry loop: client.RetryOnConflict is OnError
// with apierrors.IsConflict, and the API server's own conflict retries
// (eviction, quota charging) call it directly, as this package is the
// one both may import.
//
// Upstream: k8s.io/client-go/util/retry (OnError).
func OnError(ctx context.Context, backoff Backoff, retriable func(error) bool, fn func() error) error {
	for attempt := 1; ; attempt++ {
		err := fn()
		// Steps counts attempts; the last one has just failed.
		if err == nil || !retriable(err) || attempt >= backoff.Steps {
			return err
		}
		if werr := backoff.Wait(ctx); werr != nil {
			return errors.Join(err, werr)
		}
	}
}
