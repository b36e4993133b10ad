package cluster_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// TestStopWhileStarting cancels a cluster's start in the middle of the
// write of the kubernetes Endpoints, which fails inside the API server's
// registry, where a cancelled etcd call becomes an internal error: Start
// must still report the cancellation, which callers take as a clean stop.
func TestStopWhileStarting(t *testing.T) {
	t.Parallel()
	etcd, err := storage.NewClient(t.Context(), storagetest.Endpoints(t))
	require.NoError(t, err)
	t.Cleanup(func() { etcd.Close() })
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	kv := &cancelOnWrite{KV: etcd.KV, suffix: "/endpoints/default/kubernetes", cancel: cancel}
	etcd.KV = kv

	c, err := cluster.New(cluster.Options{Etcd: etcd, StoragePrefix: storagetest.Prefix(t), Nodes: 1, DisableServiceNetwork: true})
	require.NoError(t, err)
	err = c.Start(ctx)
	require.True(t, kv.fired.Load(), "the start never wrote the kubernetes Endpoints")
	require.ErrorIs(t, err, context.Canceled)
}

// cancelOnWrite is an etcd KV that cancels a context when a transaction
// that writes a key ending in suffix commits, and then commits it under
// its own, now cancelled, context.
type cancelOnWrite struct {
	clientv3.KV
	suffix string
	cancel context.CancelFunc
	fired  atomic.Bool
}

func (kv *cancelOnWrite) Txn(ctx context.Context) clientv3.Txn {
	return &cancelOnWriteTxn{Txn: kv.KV.Txn(ctx), kv: kv}
}

type cancelOnWriteTxn struct {
	clientv3.Txn
	kv      *cancelOnWrite
	matches bool
}

func (t *cancelOnWriteTxn) If(cs ...clientv3.Cmp) clientv3.Txn {
	t.Txn = t.Txn.If(cs...)
	return t
}

func (t *cancelOnWriteTxn) Then(ops ...clientv3.Op) clientv3.Txn {
	t.matches = t.matches || t.writes(ops)
	t.Txn = t.Txn.Then(ops...)
	return t
}

func (t *cancelOnWriteTxn) Else(ops ...clientv3.Op) clientv3.Txn {
	t.matches = t.matches || t.writes(ops)
	t.Txn = t.Txn.Else(ops...)
	return t
}

func (t *cancelOnWriteTxn) writes(ops []clientv3.Op) bool {
	for _, op := range ops {
		if op.IsPut() && strings.HasSuffix(string(op.KeyBytes()), t.kv.suffix) {
			return true
		}
	}
	return false
}

func (t *cancelOnWriteTxn) Commit() (*clientv3.TxnResponse, error) {
	if t.matches && t.kv.fired.CompareAndSwap(false, true) {
		t.kv.cancel()
	}
	return t.Txn.Commit()
}
