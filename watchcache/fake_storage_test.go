package watchcache_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/wait/waittest"
	"github.com/minicp/minicp/watchcache"
)

// fakeStorage is an in-memory underlying storage whose watch the test
// drives event by event, with fault knobs: end the watch with an error, or
// close it. It serves only what the Cacher's reflector calls (GetList of
// the prefix, Watch); the embedded nil Interface makes any other call
// panic, which a test of the cache must not make.
type fakeStorage struct {
	storage.Interface

	// mu guards items, rv and lists.
	mu    sync.Mutex
	items []runtime.Object
	rv    int64
	lists int
	// watches receives every watch the Cacher opens.
	watches chan *fakeWatch
}

func newFakeStorage(rv int64, items ...runtime.Object) *fakeStorage {
	// 10 watches: more relists than any test makes.
	return &fakeStorage{items: items, rv: rv, watches: make(chan *fakeWatch, 10)}
}

// setState is what the next list returns.
func (f *fakeStorage) setState(rv int64, items ...runtime.Object) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items, f.rv = items, rv
}

func (f *fakeStorage) listCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lists
}

func (f *fakeStorage) GetList(_ context.Context, _ string, _ storage.ListOptions) (*storage.ListResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists++
	return &storage.ListResult{Items: append([]runtime.Object(nil), f.items...), ResourceVersion: f.rv}, nil
}

func (f *fakeStorage) Watch(_ context.Context, _ string, opts storage.ListOptions) (watch.Interface, error) {
	w := &fakeWatch{ch: make(chan watch.Event), stopCh: make(chan struct{}), from: opts.ResourceVersion}
	f.watches <- w
	return w, nil
}

// nextWatch waits for the Cacher to open its next watch.
func (f *fakeStorage) nextWatch(t testing.TB) *fakeWatch {
	t.Helper()
	select {
	case w := <-f.watches:
		return w
	case <-time.After(waittest.Timeout):
		t.Fatalf("the Cacher opened no watch within %v", waittest.Timeout)
		return nil
	}
}

// fakeWatch is one watch of a fakeStorage: the test sends its events.
type fakeWatch struct {
	ch       chan watch.Event
	stopCh   chan struct{}
	stopOnce sync.Once
	// from is the resourceVersion the watch started from.
	from string
}

func (w *fakeWatch) Stop()                          { w.stopOnce.Do(func() { close(w.stopCh) }) }
func (w *fakeWatch) ResultChan() <-chan watch.Event { return w.ch }

// send hands ev to the Cacher's reflector.
func (w *fakeWatch) send(t testing.TB, typ watch.EventType, obj runtime.Object) {
	t.Helper()
	select {
	case w.ch <- watch.Event{Type: typ, Object: obj}:
	case <-w.stopCh:
		t.Fatalf("the Cacher stopped the watch before a %s event", typ)
	case <-time.After(waittest.Timeout):
		t.Fatalf("the Cacher took no %s event within %v", typ, waittest.Timeout)
	}
}

// expire ends the watch as etcd does for a compacted revision.
func (w *fakeWatch) expire(t testing.TB) {
	t.Helper()
	status := apierrors.NewResourceExpired("too old resource version").Status()
	w.send(t, watch.Error, &status)
}

// at returns a widget of namespace ns with the given resourceVersion.
func at(rv int64, ns, name, color string) *storagetest.Widget {
	w := newWidget(ns, name, color, nil)
	w.ResourceVersion = rvString(rv)
	return w
}

// bookmarkAt is a storage progress notification at rv.
func bookmarkAt(rv int64) runtime.Object {
	w := &storagetest.Widget{}
	w.ResourceVersion = rvString(rv)
	return w
}

// startFake starts a Cacher over f and returns it with its first watch.
func startFake(t *testing.T, f *fakeStorage, opts watchcache.Options) (*watchcache.Cacher, *fakeWatch) {
	t.Helper()
	opts.Storage = f
	c := startCacher(t, opts)
	fw := f.nextWatch(t)
	f.mu.Lock()
	listRV := f.rv
	f.mu.Unlock()
	require.Equal(t, rvString(listRV), fw.from, "the Cacher watches from its list's revision")
	return c, fw
}

// progressFake is a fakeStorage that can request watch progress, like
// storage.Store: each request is reported on requests, and the test
// answers it (or not) with a Bookmark on the watch.
type progressFake struct {
	*fakeStorage
	requests chan struct{}
}

func (p *progressFake) RequestWatchProgress(context.Context) error {
	p.requests <- struct{}{}
	return nil
}
