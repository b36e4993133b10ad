package relist

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/workshop/exercise"
	"github.com/minicp/minicp/workshop/workshoptest"
)

// faultyLW is the real client with fault knobs: it counts lists, can
// stop the watch in progress (as a dropped connection would), and can
// hold the next Watch call until released, so that the test changes the
// world while Run is not watching.
type faultyLW struct {
	next  ListerWatcher
	lists atomic.Int32

	mu      sync.Mutex
	current watch.Interface
	// holdCh, when not nil, blocks Watch until it is closed.
	holdCh chan struct{}
}

func (f *faultyLW) List(ctx context.Context, opts client.ListOptions) (*corev1.ConfigMapList, error) {
	f.lists.Add(1)
	return f.next.List(ctx, opts)
}

func (f *faultyLW) Watch(ctx context.Context, opts client.ListOptions) (watch.Interface, error) {
	f.mu.Lock()
	hold := f.holdCh
	f.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	w, err := f.next.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.current = w
	f.mu.Unlock()
	return w, nil
}

// hold makes the next Watch calls wait until the returned func is called.
func (f *faultyLW) hold() (release func()) {
	ch := make(chan struct{})
	f.mu.Lock()
	f.holdCh = ch
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		f.holdCh = nil
		f.mu.Unlock()
		close(ch)
	}
}

// dropWatch stops the watch in progress.
func (f *faultyLW) dropWatch() {
	f.mu.Lock()
	w := f.current
	f.mu.Unlock()
	if w != nil {
		w.Stop()
	}
}

// waitForCache waits until the cache's messages are want, failing t when
// Run returns first or after clustertest.WaitTimeout.
func waitForCache(t *testing.T, cache *Cache, run *running, what string, want map[string]string) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		changed := cache.Changed()
		got := cache.Messages()
		if equal(got, want) {
			return
		}
		select {
		case <-changed:
		case <-run.doneCh:
			workshoptest.Check(t, run.err, "Run")
			t.Fatalf("%s: Run returned early, with the cache at %v", what, got)
		case <-ctx.Done():
			t.Fatalf("%s: the cache holds %v, want %v (resourceVersion %s)", what, got, want, cache.ResourceVersion())
		}
	}
}

// running is Run in a goroutine of the test.
type running struct {
	// doneCh is closed once Run has returned err.
	doneCh chan struct{}
	err    error
}

// startRun runs Run until t ends, and then checks that it returns nil
// within clustertest.WaitTimeout.
func startRun(t *testing.T, lw ListerWatcher, cache *Cache) *running {
	ctx, stop := context.WithCancel(t.Context())
	r := &running{doneCh: make(chan struct{})}
	go func() {
		defer close(r.doneCh)
		r.err = Run(ctx, lw, cache)
	}()
	t.Cleanup(func() {
		stop()
		// t.Context() is done by now: bound the wait on its own.
		wait, cancel := context.WithTimeout(context.Background(), clustertest.WaitTimeout)
		defer cancel()
		select {
		case <-r.doneCh:
			if r.err != nil && !exercise.IsNotDone(r.err) {
				t.Errorf("Run returned %v once its context was done, want nil", r.err)
			}
		case <-wait.Done():
			t.Errorf("Run did not return within %v of its context's end", clustertest.WaitTimeout)
		}
	})
	return r
}

func configMap(name, message string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"message": message}}
}

// TestRelistAfterGone runs Run against an API server that serves watches
// from etcd (no watch cache), so that compacting etcd's history makes a
// resumed watch too old: 410 Gone.
func TestRelistAfterGone(t *testing.T) {
	workshoptest.Require(t)
	api := apiservertest.New(t, func(o *apiserver.Options) { o.WatchCacheDisabled = true })
	cms := clustertest.InMemoryClientset(t, api).ConfigMaps("default")
	ctx := t.Context()
	for i := range 3 {
		_, err := cms.Create(ctx, configMap(fmt.Sprintf("cm-%d", i), "v1"), client.WriteOptions{})
		require.NoError(t, err, "create cm-%d", i)
	}

	lw := &faultyLW{next: cms}
	cache := NewCache()
	run := startRun(t, lw, cache)

	waitForCache(t, cache, run, "the first list", map[string]string{"cm-0": "v1", "cm-1": "v1", "cm-2": "v1"})

	// Watched changes arrive without a list.
	_, err := cms.Create(ctx, configMap("cm-3", "v1"), client.WriteOptions{})
	require.NoError(t, err, "create cm-3")
	waitForCache(t, cache, run, "a watched create", map[string]string{"cm-0": "v1", "cm-1": "v1", "cm-2": "v1", "cm-3": "v1"})
	require.Equal(t, int32(1), lw.lists.Load(), "lists before any watch failed")

	// A dropped watch resumes from the cache's resourceVersion: the
	// changes made meanwhile still arrive, without a list.
	release := lw.hold()
	lw.dropWatch()
	require.NoError(t, cms.Delete(ctx, "cm-3", metav1.DeleteOptions{}), "delete cm-3")
	release()
	waitForCache(t, cache, run, "a change made while the watch was down", map[string]string{"cm-0": "v1", "cm-1": "v1", "cm-2": "v1"})
	require.Equal(t, int32(1), lw.lists.Load(), "lists after a dropped watch resumed: a resumable watch needs no list")

	// Now the changes made while the watch is down are compacted away:
	// the resumed watch gets 410, and only a new list can tell that
	// cm-0 is gone.
	release = lw.hold()
	lw.dropWatch()
	require.NoError(t, cms.Delete(ctx, "cm-0", metav1.DeleteOptions{}), "delete cm-0")
	cm1, err := cms.Get(ctx, "cm-1", client.GetOptions{})
	require.NoError(t, err, "get cm-1")
	cm1.Data["message"] = "v2"
	cm1, err = cms.Update(ctx, cm1, client.WriteOptions{})
	require.NoError(t, err, "update cm-1")
	_, err = cms.Create(ctx, configMap("cm-4", "v1"), client.WriteOptions{})
	require.NoError(t, err, "create cm-4")
	last, err := cms.Create(ctx, configMap("cm-5", "v1"), client.WriteOptions{})
	require.NoError(t, err, "create cm-5")
	rev, err := strconv.ParseInt(last.ResourceVersion, 10, 64)
	require.NoError(t, err, "resourceVersion of cm-5")
	storagetest.Compact(t, storagetest.Client(t), rev)
	release()
	waitForCache(t, cache, run, "after 410 Gone: a relist", map[string]string{"cm-1": "v2", "cm-2": "v1", "cm-4": "v1", "cm-5": "v1"})
	require.Equal(t, int32(2), lw.lists.Load(), "lists after one 410")
}
