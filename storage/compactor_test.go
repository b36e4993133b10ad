package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// TestCompactorKeepsOneIntervalOfHistory: a tick compacts up to the
// revision of the previous tick, never further, and two compactors on one
// etcd compact once per interval between them.
func TestCompactorKeepsOneIntervalOfHistory(t *testing.T) {
	client := storagetest.Client(t)
	ctx := t.Context()
	key := storagetest.Prefix(t) + "/k"
	put := func() int64 {
		resp, err := client.Put(ctx, key, "v")
		require.NoError(t, err)
		return resp.Header.Revision
	}
	readable := func(rev int64) bool {
		_, err := client.Get(ctx, key, clientv3.WithRev(rev))
		if errors.Is(err, rpctypes.ErrCompacted) {
			return false
		}
		require.NoError(t, err)
		return true
	}

	a := storage.NewCompactor(client, storage.CompactorOptions{})
	b := storage.NewCompactor(client, storage.CompactorOptions{})
	before := put()
	require.NoError(t, a.Tick(ctx), "first tick records the revision")
	require.NoError(t, b.Tick(ctx), "b loses the interval to a")
	assert.True(t, readable(before), "nothing compacted on the first tick")

	after := put()
	require.NoError(t, a.Tick(ctx), "second tick compacts up to the first tick's revision")
	assert.False(t, readable(before), "history before the previous tick is gone")
	assert.True(t, readable(after), "history since the previous tick is kept")
}

func TestCompactorStopsWithContext(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	c := storage.NewCompactor(storagetest.Client(t), storage.CompactorOptions{Clock: clk, Interval: time.Minute})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1))
	clk.Step(time.Minute) // one tick: records where history starts
	cancel()
	require.NoError(t, <-done)
}
