package watchcache_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// readYourWrites is a Cacher as the conformance suite needs it: after each
// write it waits until the cache has seen it. The suite reads its writes
// back at resourceVersion "0" and NotOlderThan, which the Cacher serves
// from the cache; a real client reading "0" after a write may see an
// older state, which Kubernetes allows, but the suite checks etcd's
// answers.
type readYourWrites struct {
	*watchcache.Cacher
}

func (s readYourWrites) Create(ctx context.Context, key string, obj runtime.Object) (runtime.Object, error) {
	out, err := s.Cacher.Create(ctx, key, obj)
	return s.seen(ctx, key, out, err)
}

func (s readYourWrites) GuaranteedUpdate(ctx context.Context, key string, opts storage.UpdateOptions, tryUpdate storage.UpdateFunc) (runtime.Object, error) {
	out, err := s.Cacher.GuaranteedUpdate(ctx, key, opts, tryUpdate)
	return s.seen(ctx, key, out, err)
}

func (s readYourWrites) Delete(ctx context.Context, key string, opts storage.DeleteOptions) (runtime.Object, error) {
	out, err := s.Cacher.Delete(ctx, key, opts)
	return s.seen(ctx, key, out, err)
}

// seen waits, through a list that must be not older than the write, for
// the cache to reach the write's revision.
func (s readYourWrites) seen(ctx context.Context, key string, out runtime.Object, err error) (runtime.Object, error) {
	if err != nil {
		return out, err
	}
	_, err = s.Cacher.GetList(ctx, key, storage.ListOptions{
		ResourceVersion:      metav1.MustAccessor(out).ResourceVersion,
		ResourceVersionMatch: storage.ResourceVersionMatchNotOlderThan,
	})
	if err != nil {
		return nil, fmt.Errorf("wait for the cache to see %s: %w", key, err)
	}
	return out, nil
}

// TestCacherConformance runs the storage conformance suite against a
// Cacher over an etcd Store, less two subtests whose expectations are
// etcd's own.
func TestCacherConformance(t *testing.T) {
	storagetest.RunStorageTests(t, func(t *testing.T) storage.Interface {
		return readYourWrites{startCacher(t, watchcache.Options{})}
	},
		storagetest.Skip{Name: "WatchCompacted", Reason: "the Cacher serves a watch from any revision its window holds, " +
			"compacted in etcd or not; TestWatchOlderThanWindow covers its 410"},
		storagetest.Skip{Name: "ConcurrentUpdates", Reason: "the subtest leaves its watch unread while 200 events arrive, " +
			"relying on storage's producer to wait; the Cacher closes a watcher that stays full past its dispatch budget " +
			"(TestSlowWatcherIsClosedAfterBudget), and passes the write race to storage unchanged (TestStore)"},
	)
}

func TestNewValidates(t *testing.T) {
	store := newStore(t)
	valid := watchcache.Options{Storage: store, ResourcePrefix: "/widgets", NewFunc: storagetest.NewWidget}
	tests := []struct {
		name   string
		mutate func(*watchcache.Options)
	}{
		{"no storage", func(o *watchcache.Options) { o.Storage = nil }},
		{"no NewFunc", func(o *watchcache.Options) { o.NewFunc = nil }},
		{"NewFunc without metadata", func(o *watchcache.Options) { o.NewFunc = func() runtime.Object { return &metav1.Status{} } }},
		{"empty prefix", func(o *watchcache.Options) { o.ResourcePrefix = "" }},
		{"relative prefix", func(o *watchcache.Options) { o.ResourcePrefix = "widgets" }},
		{"trailing slash", func(o *watchcache.Options) { o.ResourcePrefix = "/widgets/" }},
		{"negative capacity", func(o *watchcache.Options) { o.Capacity = -1 }},
		{"nil indexer", func(o *watchcache.Options) { o.Indexers = map[string]watchcache.IndexFunc{"spec.color": nil} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := valid
			tc.mutate(&opts)
			_, err := watchcache.New(opts)
			assert.Error(t, err, "New with %s", tc.name)
		})
	}
	_, err := watchcache.New(valid)
	require.NoError(t, err, "New with valid options")
}

// TestStartTwice: a second Start fails at once.
func TestStartTwice(t *testing.T) {
	c := startCacher(t, watchcache.Options{})
	err := c.Start(context.Background())
	assert.Error(t, err, "second Start")
}
