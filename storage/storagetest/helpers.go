package storagetest

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/wait/waittest"
)

// widgetKey is the key of widget name in namespace ns.
func widgetKey(ns, name string) string { return "/widgets/" + ns + "/" + name }

// newWidget returns a widget to create.
func newWidget(ns, name, color string, labels map[string]string) *Widget {
	return &Widget{
		TypeMeta:   metav1.TypeMeta{Kind: "Widget", APIVersion: "test.minicp.io/v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: "uid-" + name, Labels: labels},
		Spec:       WidgetSpec{Color: color},
	}
}

// create stores w under its key and returns the stored widget.
func create(ctx context.Context, t *testing.T, s storage.Interface, w *Widget) *Widget {
	t.Helper()
	key := widgetKey(w.Namespace, w.Name)
	out, err := s.Create(ctx, key, w)
	require.NoError(t, err, "Create(%q)", key)
	return asWidget(t, out)
}

// update applies mutate to the widget under key and returns the result.
func update(ctx context.Context, t *testing.T, s storage.Interface, key string, mutate func(*Widget)) *Widget {
	t.Helper()
	out, err := s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) {
		w := cur.(*Widget)
		mutate(w)
		return w, nil
	})
	require.NoError(t, err, "GuaranteedUpdate(%q)", key)
	return asWidget(t, out)
}

// del deletes the widget under key and returns its last state.
func del(ctx context.Context, t *testing.T, s storage.Interface, key string) *Widget {
	t.Helper()
	out, err := s.Delete(ctx, key, storage.DeleteOptions{})
	require.NoError(t, err, "Delete(%q)", key)
	return asWidget(t, out)
}

func asWidget(t *testing.T, obj runtime.Object) *Widget {
	t.Helper()
	w, ok := obj.(*Widget)
	require.True(t, ok, "object is a %T, not a *Widget", obj)
	return w
}

// rv returns obj's resourceVersion as a revision.
func rv(t *testing.T, obj runtime.Object) int64 {
	t.Helper()
	s := metav1.MustAccessor(obj).ResourceVersion
	n, err := strconv.ParseInt(s, 10, 64)
	require.NoError(t, err, "resourceVersion %q of %T", s, obj)
	return n
}

// rvString formats a revision as a resourceVersion.
func rvString(rev int64) string { return strconv.FormatInt(rev, 10) }

// names returns the namespace/name of each widget in items.
func names(t *testing.T, items []runtime.Object) []string {
	t.Helper()
	out := make([]string, 0, len(items))
	for _, obj := range items {
		w := asWidget(t, obj)
		out = append(out, w.Namespace+"/"+w.Name)
	}
	return out
}

// startWatch starts a watch that the test's end stops.
func startWatch(ctx context.Context, t *testing.T, s storage.Interface, key string, opts storage.ListOptions) watch.Interface {
	t.Helper()
	w, err := s.Watch(ctx, key, opts)
	require.NoError(t, err, "Watch(%q, rv=%q)", key, opts.ResourceVersion)
	t.Cleanup(w.Stop)
	return w
}

// nextEvent waits for the next event of w; the channel closing or the wait
// timing out fails the test.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed while an event was expected")
		return ev
	case <-ctx.Done():
		t.Fatalf("no watch event within %v", waittest.Timeout)
		return watch.Event{}
	}
}

// expectEvent waits for the next event and checks its type and widget.
func expectEvent(t *testing.T, w watch.Interface, typ watch.EventType, ns, name string) *Widget {
	t.Helper()
	ev := nextEvent(t, w)
	require.Equal(t, typ, ev.Type, "event type for %s/%s (object %+v)", ns, name, ev.Object)
	got := asWidget(t, ev.Object)
	require.Equal(t, ns+"/"+name, got.Namespace+"/"+got.Name, "%s event object", typ)
	return got
}

// expectClosed waits for w's channel to close, draining what is left.
func expectClosed(t *testing.T, w watch.Interface) {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return
			}
		case <-ctx.Done():
			t.Fatalf("watch not closed within %v", waittest.Timeout)
		}
	}
}
