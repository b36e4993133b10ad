package client

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/wait"
)

// DefaultRetry is the backoff for a conflict between clients changing the
// same object: five quick attempts 10ms apart, because the winner of the
// race has already written and a re-read will almost surely succeed.
//
// Upstream: k8s.io/client-go/util/retry (DefaultRetry).
var DefaultRetry = wait.Backoff{
	Steps:   5,
	Initial: 10 * time.Millisecond,
	Factor:  1.0,
	Jitter:  0.1,
}

// DefaultBackoff is the backoff for a conflict with controllers that keep
// writing the object (a status that changes every heartbeat): four
// attempts, 10ms, 50ms, 250ms apart, giving the controllers time to settle.
//
// Upstream: k8s.io/client-go/util/retry (DefaultBackoff).
var DefaultBackoff = wait.Backoff{
	Steps:   4,
	Initial: 10 * time.Millisecond,
	Factor:  5.0,
	Jitter:  0.1,
}

// RetryOnConflict calls fn until it returns something other than a 409
// Conflict (apierrors.IsConflict), at most backoff.Steps times, waiting
// backoff's delays between calls: wait.OnError with IsConflict. fn must
// re-read the object each time: retrying a write of the same stale object
// conflicts again. It returns fn's last error (nil on success), joined
// with ctx's error when ctx ended while waiting.
//
// Upstream: k8s.io/client-go/util/retry (RetryOnConflict).
func RetryOnConflict(ctx context.Context, backoff wait.Backoff, fn func() error) error {
	return wait.OnError(ctx, backoff, apierrors.IsConflict, fn)
}
