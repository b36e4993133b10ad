package informer_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

// scriptedLW is a ListerWatcher the test plays the server of: every List
// and Watch call is handed to the test, which answers it.
type scriptedLW struct {
	lists   chan listCall
	watches chan watchCall
}

type listCall struct {
	opts  client.ListOptions
	reply chan listReply
}

type listReply struct {
	list metav1.ListInterface
	err  error
}

type watchCall struct {
	opts  client.ListOptions
	reply chan watchReply
}

type watchReply struct {
	w   watch.Interface
	err error
}

func newScriptedLW() *scriptedLW {
	return &scriptedLW{lists: make(chan listCall), watches: make(chan watchCall)}
}

func (s *scriptedLW) List(ctx context.Context, opts client.ListOptions) (metav1.ListInterface, error) {
	c := listCall{opts: opts, reply: make(chan listReply, 1)}
	select {
	case s.lists <- c:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-c.reply:
		return r.list, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *scriptedLW) Watch(ctx context.Context, opts client.ListOptions) (watch.Interface, error) {
	c := watchCall{opts: opts, reply: make(chan watchReply, 1)}
	select {
	case s.watches <- c:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-c.reply:
		return r.w, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// expectList waits for the reflector's next List.
func (s *scriptedLW) expectList(t *testing.T) listCall {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case c := <-s.lists:
		return c
	case c := <-s.watches:
		t.Fatalf("got a Watch from %q, want a List", c.opts.ResourceVersion)
	case <-ctx.Done():
		t.Fatal("no List")
	}
	return listCall{}
}

// expectWatch waits for the reflector's next Watch.
func (s *scriptedLW) expectWatch(t *testing.T) watchCall {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case c := <-s.watches:
		return c
	case c := <-s.lists:
		t.Fatalf("got a List at %q, want a Watch", c.opts.ResourceVersion)
	case <-ctx.Done():
		t.Fatal("no Watch")
	}
	return watchCall{}
}

// fakeWatch is a watch the test feeds.
type fakeWatch struct {
	ch     chan watch.Event
	stopCh chan struct{}
}

func newFakeWatch() *fakeWatch {
	return &fakeWatch{ch: make(chan watch.Event), stopCh: make(chan struct{})}
}

func (w *fakeWatch) Stop() {
	select {
	case <-w.stopCh:
	default:
		close(w.stopCh)
	}
}

func (w *fakeWatch) ResultChan() <-chan watch.Event { return w.ch }

// send delivers ev to the reflector.
func (w *fakeWatch) send(t *testing.T, typ watch.EventType, obj runtime.Object) {
	t.Helper()
	select {
	case w.ch <- watch.Event{Type: typ, Object: obj}:
	case <-w.stopCh:
		t.Fatal("the reflector stopped the watch")
	}
}

func podList(rv string, pods ...*corev1.Pod) *corev1.PodList {
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv}}
	for _, p := range pods {
		l.Items = append(l.Items, *p)
	}
	return l
}

// recordingStore is a ReflectorStore that reports each call as a line.
type recordingStore struct{ lines chan string }

func newRecordingStore() *recordingStore { return &recordingStore{lines: make(chan string, 100)} }

func (s *recordingStore) Add(obj runtime.Object) error { s.lines <- "add " + nameRV(obj); return nil }
func (s *recordingStore) Update(obj runtime.Object) error {
	s.lines <- "update " + nameRV(obj)
	return nil
}
func (s *recordingStore) Delete(obj any) error {
	s.lines <- "delete " + nameRV(obj.(runtime.Object))
	return nil
}
func (s *recordingStore) Resync() error { s.lines <- "resync"; return nil }
func (s *recordingStore) Replace(list []runtime.Object, rv string) error {
	line := "replace@" + rv
	for _, o := range list {
		line += " " + nameRV(o)
	}
	s.lines <- line
	return nil
}

func (s *recordingStore) next(t *testing.T) string {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case l := <-s.lines:
		return l
	case <-ctx.Done():
		t.Fatal("no store call")
		return ""
	}
}

// startReflector runs a reflector over lw and store until the test ends.
func startReflector(t *testing.T, lw informer.ListerWatcher, store informer.ReflectorStore, opts informer.ReflectorOptions) *informer.Reflector {
	t.Helper()
	opts.ListerWatcher, opts.Store = lw, store
	r, err := informer.NewReflector(opts)
	require.NoError(t, err)
	clustertest.Start(t, r)
	return r
}

func TestReflectorListThenWatch(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	r := startReflector(t, lw, store, informer.ReflectorOptions{Clock: clk, LabelSelector: "app=web"})

	l := lw.expectList(t)
	assert.Equal(t, "", l.opts.ResourceVersion, "the first list is consistent (read from etcd)")
	assert.Equal(t, "app=web", l.opts.LabelSelector)
	l.reply <- listReply{list: podList("10", pod("default", "a", "7", ""))}
	assert.Equal(t, "replace@10 a@7", store.next(t))

	wc := lw.expectWatch(t)
	assert.Equal(t, "10", wc.opts.ResourceVersion, "the watch starts at the list's resourceVersion")
	assert.True(t, wc.opts.AllowWatchBookmarks)
	assert.Equal(t, "app=web", wc.opts.LabelSelector)
	require.NotNil(t, wc.opts.TimeoutSeconds)
	assert.GreaterOrEqual(t, *wc.opts.TimeoutSeconds, int64(300), "between 5 and 10 minutes")
	assert.LessOrEqual(t, *wc.opts.TimeoutSeconds, int64(600))
	w := newFakeWatch()
	wc.reply <- watchReply{w: w}

	w.send(t, watch.Added, pod("default", "b", "11", ""))
	w.send(t, watch.Modified, pod("default", "a", "12", ""))
	w.send(t, watch.Deleted, pod("default", "b", "13", ""))
	w.send(t, watch.Bookmark, pod("", "", "20", ""))
	assert.Equal(t, []string{"add b@11", "update a@12", "delete b@13"},
		[]string{store.next(t), store.next(t), store.next(t)})
	close(w.ch) // the server ended the watch (its timeout)

	wc = lw.expectWatch(t)
	assert.Equal(t, "20", wc.opts.ResourceVersion, "re-watch from the bookmark's resourceVersion, no relist")
	assert.Equal(t, "20", r.LastSyncResourceVersion())
	wc.reply <- watchReply{w: newFakeWatch()}
}

func TestReflectorRelistsOnGone(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clk})

	lw.expectList(t).reply <- listReply{list: podList("10", pod("default", "a", "7", ""))}
	store.next(t)
	w := newFakeWatch()
	lw.expectWatch(t).reply <- watchReply{w: w}
	expired := apierrors.NewResourceExpired("too old resource version: 10 (15)").Status()
	w.send(t, watch.Error, &expired)

	l := lw.expectList(t)
	assert.Equal(t, "10", l.opts.ResourceVersion, "relist at once, no older than what the store has")
	l.reply <- listReply{list: podList("30", pod("default", "b", "25", ""))}
	assert.Equal(t, "replace@30 b@25", store.next(t))
	assert.Equal(t, "30", lw.expectWatch(t).opts.ResourceVersion)
}

func TestReflectorListExpiredFallsBackToLatest(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clk})

	l := lw.expectList(t)
	l.reply <- listReply{err: apierrors.NewResourceExpired("The resourceVersion for the provided list is too old.")}
	l = lw.expectList(t)
	assert.Equal(t, "", l.opts.ResourceVersion, "a refused resourceVersion is dropped: read the latest")
	l.reply <- listReply{list: podList("50")}
	assert.Equal(t, "replace@50", store.next(t))
	lw.expectWatch(t).reply <- watchReply{w: newFakeWatch()}
}

func TestReflectorPagesTheList(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clocktest.NewFake(time.Unix(0, 0))})

	l := lw.expectList(t)
	assert.Equal(t, int64(500), l.opts.Limit)
	first := podList("10", pod("default", "a", "7", ""))
	first.Continue = "token-1"
	l.reply <- listReply{list: first}
	l = lw.expectList(t)
	assert.Equal(t, "token-1", l.opts.Continue)
	assert.Equal(t, "", l.opts.ResourceVersion, "a continued list is pinned by its token")
	l.reply <- listReply{list: podList("10", pod("default", "b", "8", ""))}
	assert.Equal(t, "replace@10 a@7 b@8", store.next(t))
	lw.expectWatch(t).reply <- watchReply{w: newFakeWatch()}
}

func TestReflectorExpiredContinueListsInOneRequest(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clocktest.NewFake(time.Unix(0, 0))})

	first := podList("10", pod("default", "a", "7", ""))
	first.Continue = "token-1"
	lw.expectList(t).reply <- listReply{list: first}
	lw.expectList(t).reply <- listReply{err: apierrors.NewResourceExpired("The provided continue parameter is too old")}
	l := lw.expectList(t)
	assert.Equal(t, client.ListOptions{}, l.opts, "the latest state, unpaged")
	l.reply <- listReply{list: podList("40", pod("default", "a", "7", ""), pod("default", "b", "30", ""))}
	assert.Equal(t, "replace@40 a@7 b@30", store.next(t))
	lw.expectWatch(t).reply <- watchReply{w: newFakeWatch()}
}

func TestReflectorBacksOffOnErrors(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	backoff := wait.Backoff{Initial: time.Second, Factor: 2}
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clk, Backoff: &backoff})

	lw.expectList(t).reply <- listReply{err: apierrors.NewInternalError(errors.New("etcd is down"))}
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "the reflector waits before relisting")
	select {
	case c := <-lw.lists:
		t.Fatalf("relisted without backoff: %+v", c.opts)
	default:
	}
	clk.Step(time.Second)
	lw.expectList(t).reply <- listReply{list: podList("10")}
	store.next(t)

	// A watch that cannot connect is retried from the same
	// resourceVersion after backoff, without a relist.
	wc := lw.expectWatch(t)
	wc.reply <- watchReply{err: errors.New("dial tcp: connection refused")}
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	clk.Step(2 * time.Second) // the second step of the backoff
	assert.Equal(t, "10", lw.expectWatch(t).opts.ResourceVersion)
}

func TestReflectorShortWatchIsBackedOff(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clk})
	lw.expectList(t).reply <- listReply{list: podList("10")}
	store.next(t)
	w := newFakeWatch()
	lw.expectWatch(t).reply <- watchReply{w: w}
	close(w.ch) // closed at once, nothing delivered

	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "a watch closed at once is backed off")
	select {
	case c := <-lw.watches:
		t.Fatalf("re-watched without backoff from %q", c.opts.ResourceVersion)
	default:
	}
	clk.Step(time.Minute)
	wc := lw.expectWatch(t)
	assert.Equal(t, "10", wc.opts.ResourceVersion, "then watched again from the same resourceVersion")
	wc.reply <- watchReply{w: newFakeWatch()}
}

func TestReflectorResync(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	resync := true
	startReflector(t, lw, store, informer.ReflectorOptions{
		Clock: clk, ResyncPeriod: time.Minute, ShouldResync: func() bool { return resync },
	})
	lw.expectList(t).reply <- listReply{list: podList("10")}
	store.next(t)
	lw.expectWatch(t).reply <- watchReply{w: newFakeWatch()}
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	clk.Step(time.Minute)
	assert.Equal(t, "resync", store.next(t))
}

// The WatchErrorHandler hears every error that ended a list-watch: here a
// resource the server stopped serving, whose watch and then list answer
// 404.
func TestReflectorWatchErrorHandler(t *testing.T) {
	lw, store := newScriptedLW(), newRecordingStore()
	clk := clocktest.NewFake(time.Unix(0, 0))
	errs := make(chan error, 10)
	startReflector(t, lw, store, informer.ReflectorOptions{Clock: clk,
		WatchErrorHandler: func(err error) { errs <- err }})
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()

	lw.expectList(t).reply <- listReply{list: podList("10")}
	store.next(t)
	gone := apierrors.NewNotFound(runtime.GroupResource{Group: "example.com", Resource: "developers"}, "")
	lw.expectWatch(t).reply <- watchReply{err: gone}
	select {
	case err := <-errs:
		assert.True(t, apierrors.IsNotFound(err), "the handler gets the watch's 404: %v", err)
	case <-ctx.Done():
		t.Fatal("no WatchErrorHandler call")
	}
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "then the reflector backs off")
	clk.Step(time.Minute)
	lw.expectList(t).reply <- listReply{err: gone}
	select {
	case err := <-errs:
		assert.True(t, apierrors.IsNotFound(err), "and the list's: %v", err)
	case <-ctx.Done():
		t.Fatal("no WatchErrorHandler call for the list")
	}
}
