package storage

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
)

// CompactRevKey is the etcd key API servers coordinate compaction through.
// It is outside every cluster prefix on purpose: compaction is global to an
// etcd, so every cluster and API server sharing one etcd takes part in the
// same election, and only one of them compacts per interval.
const CompactRevKey = "compact_rev_key"

// DefaultCompactionInterval is kube-apiserver's --etcd-compaction-interval:
// history stays watchable for at least one interval, which is what lets a
// client that lost its watch resume instead of relisting.
const DefaultCompactionInterval = 5 * time.Minute

// CompactorOptions configures a Compactor.
type CompactorOptions struct {
	// Interval between compactions. Defaults to DefaultCompactionInterval.
	Interval time.Duration
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// Compactor keeps etcd's history bounded as kube-apiserver does: every
// interval it compacts etcd up to the revision it saw one interval before,
// so at least one interval of history is always kept. Several compactors on
// one etcd agree through a compare-and-swap on CompactRevKey, so each
// interval only one of them compacts.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (compactor).
type Compactor struct {
	client *clientv3.Client
	opts   CompactorOptions
	log    *slog.Logger

	// mu guards version and rev, the state carried from tick to tick.
	mu sync.Mutex
	// version is CompactRevKey's version this compactor saw last.
	version int64
	// rev is etcd's revision at the last tick: what the next tick compacts.
	rev int64
}

// NewCompactor returns a compactor over client; Start runs it.
func NewCompactor(client *clientv3.Client, opts CompactorOptions) *Compactor {
	if opts.Interval <= 0 {
		opts.Interval = DefaultCompactionInterval
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	return &Compactor{client: client, opts: opts, log: logging.OrDiscard(opts.Logger).With("component", "compactor")}
}

// Start compacts every interval until ctx is done. Errors are logged and
// retried at the next interval: a missed compaction only keeps more
// history.
func (c *Compactor) Start(ctx context.Context) error {
	ticker := c.opts.Clock.NewTicker(c.opts.Interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C():
		}
		if err := c.Tick(ctx); err != nil && ctx.Err() == nil {
			c.log.Warn("compaction failed", "err", err)
		}
	}
}

// Tick is one interval's work, which Start does on every tick: compact up
// to the revision seen at the previous tick (the first tick only records
// it), unless another compactor already did this interval's compaction.
func (c *Compactor) Tick(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	c.version, c.rev, err = c.compact(ctx, c.version, c.rev)
	return err
}

// compact compacts up to rev if CompactRevKey still has version, the
// version this compactor saw last time, and returns the key's new version
// and etcd's current revision: the revision to compact next time. A lost
// CAS means another compactor did the work this interval.
func (c *Compactor) compact(ctx context.Context, version, rev int64) (int64, int64, error) {
	resp, err := c.client.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(CompactRevKey), "=", version)).
		Then(clientv3.OpPut(CompactRevKey, strconv.FormatInt(rev, 10))).
		Else(clientv3.OpGet(CompactRevKey)).
		Commit()
	if err != nil {
		return version, rev, fmt.Errorf("compact: %w", err)
	}
	current := resp.Header.Revision
	if !resp.Succeeded {
		return resp.Responses[0].GetResponseRange().Kvs[0].Version, current, nil
	}
	if rev == 0 {
		return version + 1, current, nil // the first tick only records where history starts
	}
	if _, err := c.client.Compact(ctx, rev); err != nil {
		return version + 1, current, fmt.Errorf("compact at %d: %w", rev, err)
	}
	c.log.Info("compacted", "rv", rev)
	return version + 1, current, nil
}
