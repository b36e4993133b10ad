package watchcache_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/wait/waittest"
	"github.com/minicp/minicp/watchcache"
)

// widgetPrefix is the resource prefix of the widgets in these tests.
const widgetPrefix = "/widgets"

// newStore returns a Widget store of the test's own on the shared etcd.
func newStore(t testing.TB) *storage.Store {
	t.Helper()
	s, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{
		Prefix:        storagetest.Prefix(t),
		GroupResource: storagetest.WidgetResource,
		NewFunc:       storagetest.NewWidget,
	})
	require.NoError(t, err, "NewStore")
	return s
}

// startCacher fills in opts for widgets (Storage defaults to a new store),
// starts the Cacher until the test ends, and waits for it to be ready.
func startCacher(t testing.TB, opts watchcache.Options) *watchcache.Cacher {
	t.Helper()
	if opts.Storage == nil {
		opts.Storage = newStore(t)
	}
	opts.ResourcePrefix = widgetPrefix
	opts.NewFunc = storagetest.NewWidget
	if opts.GetAttrs == nil {
		opts.GetAttrs = storagetest.WidgetAttrs
	}
	c, err := watchcache.New(opts)
	require.NoError(t, err, "watchcache.New")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done, "Start")
	})
	wctx, wcancel := context.WithTimeout(ctx, waittest.Timeout)
	defer wcancel()
	require.NoError(t, c.WaitReady(wctx), "WaitReady")
	return c
}

func widgetKey(ns, name string) string { return widgetPrefix + "/" + ns + "/" + name }

func newWidget(ns, name, color string, labels map[string]string) *storagetest.Widget {
	return &storagetest.Widget{
		TypeMeta:   metav1.TypeMeta{Kind: "Widget", APIVersion: "test.minicp.io/v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: "uid-" + name, Labels: labels},
		Spec:       storagetest.WidgetSpec{Color: color},
	}
}

func create(t testing.TB, s storage.Interface, w *storagetest.Widget) *storagetest.Widget {
	t.Helper()
	out, err := s.Create(context.Background(), widgetKey(w.Namespace, w.Name), w)
	require.NoError(t, err, "Create(%s/%s)", w.Namespace, w.Name)
	return out.(*storagetest.Widget)
}

func update(t testing.TB, s storage.Interface, ns, name string, mutate func(*storagetest.Widget)) *storagetest.Widget {
	t.Helper()
	out, err := s.GuaranteedUpdate(context.Background(), widgetKey(ns, name), storage.UpdateOptions{},
		func(cur runtime.Object) (runtime.Object, error) {
			w := cur.(*storagetest.Widget)
			mutate(w)
			return w, nil
		})
	require.NoError(t, err, "GuaranteedUpdate(%s/%s)", ns, name)
	return out.(*storagetest.Widget)
}

func del(t testing.TB, s storage.Interface, ns, name string) *storagetest.Widget {
	t.Helper()
	out, err := s.Delete(context.Background(), widgetKey(ns, name), storage.DeleteOptions{})
	require.NoError(t, err, "Delete(%s/%s)", ns, name)
	return out.(*storagetest.Widget)
}

// rvOf returns obj's resourceVersion as a revision.
func rvOf(t testing.TB, obj runtime.Object) int64 {
	t.Helper()
	rv, err := strconv.ParseInt(metav1.MustAccessor(obj).ResourceVersion, 10, 64)
	require.NoError(t, err, "resourceVersion of %T", obj)
	return rv
}

func rvString(rv int64) string { return strconv.FormatInt(rv, 10) }

// startWatch starts a watch the test's end stops.
func startWatch(t testing.TB, s storage.Interface, key string, opts storage.ListOptions) watch.Interface {
	t.Helper()
	w, err := s.Watch(context.Background(), key, opts)
	require.NoError(t, err, "Watch(%q, rv=%q)", key, opts.ResourceVersion)
	t.Cleanup(w.Stop)
	return w
}

// nextEvent waits for w's next event; a closed channel or no event within
// waittest.Timeout fails the test.
func nextEvent(t testing.TB, w watch.Interface) watch.Event {
	t.Helper()
	timer := time.NewTimer(waittest.Timeout)
	defer timer.Stop()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed while an event was expected")
		return ev
	case <-timer.C:
		t.Fatalf("no watch event within %v", waittest.Timeout)
		return watch.Event{}
	}
}

// expectEvent waits for the next event and checks its type and widget.
func expectEvent(t testing.TB, w watch.Interface, typ watch.EventType, ns, name string) *storagetest.Widget {
	t.Helper()
	ev := nextEvent(t, w)
	require.Equal(t, typ, ev.Type, "event type for %s/%s (object %+v)", ns, name, ev.Object)
	got, ok := ev.Object.(*storagetest.Widget)
	require.True(t, ok, "event object is a %T", ev.Object)
	require.Equal(t, ns+"/"+name, got.Namespace+"/"+got.Name, "%s event object", typ)
	return got
}

// expectClosed drains w until its channel closes, and returns what it got.
func expectClosed(t testing.TB, w watch.Interface) []watch.Event {
	t.Helper()
	timer := time.NewTimer(waittest.Timeout)
	defer timer.Stop()
	var got []watch.Event
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return got
			}
			got = append(got, ev)
		case <-timer.C:
			t.Fatalf("watch not closed within %v", waittest.Timeout)
		}
	}
}

// names returns namespace/name of each widget.
func names(t testing.TB, items []runtime.Object) []string {
	t.Helper()
	out := make([]string, 0, len(items))
	for _, obj := range items {
		w := obj.(*storagetest.Widget)
		out = append(out, w.Namespace+"/"+w.Name)
	}
	return out
}

// waitCtx is a context for one bounded wait.
func waitCtx(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waittest.Timeout)
	t.Cleanup(cancel)
	return ctx
}

func numbered(i int) string { return fmt.Sprintf("w%03d", i) }
