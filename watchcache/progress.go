package watchcache

import (
	"context"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/storage"
)

// progressRequestPeriod is how often a request waiting for the cache to
// reach a revision asks etcd for progress again: Kubernetes' 100ms (etcd
// ignores a request while any watch of the stream is behind, so one may
// not be enough), and a fraction of blockTimeout.
const progressRequestPeriod = 100 * time.Millisecond

// blockTimeout bounds how long a request for a revision newer than the
// cache waits for the cache to catch up before it gets
// ErrTooLargeResourceVersion: Kubernetes' 3s, far more than an event or a
// requested progress notification takes to arrive.
const blockTimeout = 3 * time.Second

// watchProgressRequester is the optional capability of an underlying
// storage to make etcd report, soon, the revision its watches are current
// to. storage.Store has it (RequestWatchProgress). Without it the cache's
// revision moves only with events and with etcd's own progress interval
// (10 minutes by default), and a request for a revision the resource has
// no event at waits out blockTimeout.
type watchProgressRequester interface {
	RequestWatchProgress(ctx context.Context) error
}

// progressRequester asks the underlying storage for progress on behalf of
// requests waiting for the cache to be fresh, at most once per
// progressRequestPeriod however many wait.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (conditionalProgressRequester).
type progressRequester struct {
	requester watchProgressRequester
	clock     clock.Clock

	// mu guards ctx and last.
	mu sync.Mutex
	// ctx is Start's: requests go out on the stream of the Cacher's own
	// watch, whose context carries no metadata of a client request, and
	// stop with the Cacher.
	ctx  context.Context
	last time.Time
}

// newProgressRequester returns nil when s cannot request progress.
func newProgressRequester(s storage.Interface, c clock.Clock) *progressRequester {
	r, ok := s.(watchProgressRequester)
	if !ok {
		return nil
	}
	return &progressRequester{requester: r, clock: c}
}

func (p *progressRequester) setContext(ctx context.Context) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ctx = ctx
}

// request asks for progress unless that was done within the last
// progressRequestPeriod. A nil progressRequester does nothing. Failures
// are left to the next period: the waiter's bound still holds.
func (p *progressRequester) request() { p.requestIf(false) }

// requestNow asks for progress even if a request went out within the
// last progressRequestPeriod: for a caller that asks once and must not
// wait out the period (SyncWatchers, once per barrier round).
func (p *progressRequester) requestNow() { p.requestIf(true) }

func (p *progressRequester) requestIf(always bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	ctx := p.ctx
	due := ctx != nil && (always || p.last.IsZero() || p.clock.Since(p.last) >= progressRequestPeriod)
	if due {
		p.last = p.clock.Now()
	}
	p.mu.Unlock()
	if due {
		_ = p.requester.RequestWatchProgress(ctx)
	}
}

// waitUntilFresh blocks until the cache is current to rv: nil, ctx's error,
// or after blockTimeout ErrTooLargeResourceVersion (the client retries).
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCache.waitUntilFreshAndBlock).
func (c *Cacher) waitUntilFresh(ctx context.Context, key string, rv int64) error {
	cur, freshCh := c.watchCache.fresh()
	if cur >= rv {
		return nil
	}
	timeout := c.requestClock.NewTimer(blockTimeout)
	defer timeout.Stop()
	var periodCh <-chan time.Time
	if c.progress != nil {
		c.progress.request()
		period := c.requestClock.NewTicker(progressRequestPeriod)
		defer period.Stop()
		periodCh = period.C()
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout.C():
			return storage.NewTooLargeResourceVersionError(key, rv, cur)
		case <-periodCh:
			c.progress.request()
		case <-freshCh:
			if cur, freshCh = c.watchCache.fresh(); cur >= rv {
				return nil
			}
		}
	}
}
