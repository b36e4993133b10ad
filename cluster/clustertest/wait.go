package clustertest

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
	"github.com/minicp/minicp/wait/waittest"
)

// WaitTimeoutEnv names the environment variable that overrides
// WaitTimeout, as a time.ParseDuration string ("2m"), for a machine
// slower than CI.
const WaitTimeoutEnv = waittest.TimeoutEnv

// WaitTimeout bounds every wait of a test: for a change, an event, a
// component to be idle or ready. It is waittest.Timeout, the bound the
// tests of every package share: 30 seconds, or MINICP_WAIT_TIMEOUT when
// that is set. Tests only read it.
var WaitTimeout = waittest.Timeout

// WaitContext returns a context of t that ends after WaitTimeout, for a
// wait no helper here covers; call its cancel func when done.
func WaitContext(t testing.TB) (context.Context, context.CancelFunc) {
	return waittest.Context(t)
}

// Receive returns the next value from ch, failing t (naming what) when
// none comes within WaitTimeout. A closed ch yields its zero value, as a
// receive does.
func Receive[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	ctx, cancel := WaitContext(t)
	defer cancel()
	v, _ := receive(ctx, t, ch, what)
	return v
}

// receive returns the next value from ch and whether it was sent (not
// closed), failing t when ctx ends first.
func receive[T any](ctx context.Context, t testing.TB, ch <-chan T, what string) (T, bool) {
	t.Helper()
	select {
	case v, ok := <-ch:
		return v, ok
	case <-ctx.Done():
		t.Fatalf("no %s within %v", what, WaitTimeout)
		var zero T
		return zero, false
	}
}

// ReceiveUntil receives from ch, dropping values, until match accepts
// one, and returns it. It fails t (naming what) when ch closes first or
// WaitTimeout passes: one bound for the whole wait, not per value.
func ReceiveUntil[T any](t testing.TB, ch <-chan T, what string, match func(T) bool) T {
	t.Helper()
	ctx, cancel := WaitContext(t)
	defer cancel()
	for {
		v, ok := receive(ctx, t, ch, what)
		if !ok {
			t.Fatalf("no %s: the channel closed", what)
		}
		if match(v) {
			return v
		}
	}
}

// NextEvent returns w's next event, failing t when w closes first or no
// event comes within WaitTimeout.
func NextEvent(t testing.TB, w watch.Interface) watch.Event {
	t.Helper()
	ctx, cancel := WaitContext(t)
	defer cancel()
	ev, ok := receive(ctx, t, w.ResultChan(), "watch event")
	if !ok {
		t.Fatal("the watch closed while an event was expected")
	}
	return ev
}

// WaitClosed drains w until the server or the client closes it, failing
// t when it is still open after WaitTimeout.
func WaitClosed(t testing.TB, w watch.Interface) {
	t.Helper()
	ctx, cancel := WaitContext(t)
	defer cancel()
	for {
		if _, ok := receive(ctx, t, w.ResultChan(), "end of the watch"); !ok {
			return
		}
	}
}

// WaitIdle blocks until every idler (a Manager, the scheduler, a
// kubelet, a controller) is idle at once (see wait.WaitIdle), failing t
// after WaitTimeout.
func WaitIdle(t testing.TB, idlers ...wait.Idler) {
	t.Helper()
	ctx, cancel := WaitContext(t)
	defer cancel()
	if err := wait.WaitIdle(ctx, idlers...); err != nil {
		t.Fatalf("not idle within %v: %v", WaitTimeout, err)
	}
}

// WaitFor watches the object name of r until cond holds for it, and
// returns it as last seen; found is false once the object does not exist
// (obj is then its last state, or the zero T). It fails t after
// WaitTimeout, naming what it waited for. It never polls: it reads the
// object, then watches it from that resourceVersion.
func WaitFor[T interface {
	metav1.Object
	comparable
}, L metav1.ListInterface](t testing.TB, r *client.Resource[T, L], name, what string, cond func(obj T, found bool) bool) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), WaitTimeout)
	defer cancel()
	var last T
	for {
		obj, err := r.Get(ctx, name, client.GetOptions{})
		if ctx.Err() != nil {
			t.Fatalf("%s: %s: not within %v; last seen: %+v", name, what, WaitTimeout, last)
		}
		found := err == nil
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("get %s: %v", name, err)
		}
		rv := ""
		if found {
			last, rv = obj, obj.GetObjectMeta().ResourceVersion
		}
		if cond(last, found) {
			return last
		}
		w, err := r.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: rv})
		if err != nil {
			continue // ctx ended: reported above
		}
		for ev := range w.ResultChan() {
			obj, ok := ev.Object.(T)
			if !ok {
				continue
			}
			last = obj
			if cond(obj, ev.Type != watch.Deleted) {
				w.Stop()
				return obj
			}
		}
		w.Stop()
	}
}

// WaitForList lists r and then watches it until cond holds for the
// objects it holds, keyed by name, and returns them; r is one namespace
// or a cluster-scoped kind, as names repeat across namespaces. It fails t
// after WaitTimeout, naming what it waited for and the objects it held.
// opts select the objects (label and field selectors); cond must not keep
// the map, which changes after it returns false.
func WaitForList[T interface {
	metav1.Object
	comparable
}, L metav1.ListInterface](t testing.TB, r *client.Resource[T, L], opts client.ListOptions, what string, cond func(objs map[string]T) bool) map[string]T {
	t.Helper()
	ctx, cancel := WaitContext(t)
	defer cancel()
	for {
		objs, ok := waitForList(ctx, t, r, opts, cond)
		if ok {
			return objs
		}
		if ctx.Err() != nil {
			t.Fatalf("%s: not within %v; held: %v", what, WaitTimeout, slices.Sorted(maps.Keys(objs)))
		}
		// The watch ended (expired, or the server closed it): relist.
	}
}

// waitForList is one list-then-watch of WaitForList: it reports false
// when the watch ends before cond holds.
func waitForList[T interface {
	metav1.Object
	comparable
}, L metav1.ListInterface](ctx context.Context, t testing.TB, r *client.Resource[T, L], opts client.ListOptions, cond func(map[string]T) bool) (map[string]T, bool) {
	t.Helper()
	objs := map[string]T{}
	list, err := r.List(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return objs, false
		}
		t.Fatalf("list: %v", err)
	}
	items, err := runtime.ListItems(list)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	for _, item := range items {
		if obj, ok := item.(T); ok {
			objs[obj.GetObjectMeta().Name] = obj
		}
	}
	if cond(objs) {
		return objs, true
	}
	opts.ResourceVersion = list.GetListMeta().ResourceVersion
	w, err := r.Watch(ctx, opts)
	if err != nil {
		return objs, false
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		obj, ok := ev.Object.(T)
		if !ok || ev.Type == watch.Bookmark {
			continue // an Error ends the watch, and WaitForList relists
		}
		if ev.Type == watch.Deleted {
			delete(objs, obj.GetObjectMeta().Name)
		} else {
			objs[obj.GetObjectMeta().Name] = obj
		}
		if cond(objs) {
			return objs, true
		}
	}
	return objs, false
}

// WaitForEvent lists and then watches the Events of cs in namespace ns
// until one matches, and returns it; it fails t after WaitTimeout, naming
// the events it saw (an Event's name starts with its object's).
func WaitForEvent(t testing.TB, cs *client.Clientset, ns string, match func(*corev1.Event) bool) *corev1.Event {
	t.Helper()
	var found *corev1.Event
	WaitForList(t, cs.Events(ns), client.ListOptions{}, "a matching event", func(events map[string]*corev1.Event) bool {
		for _, e := range events {
			if match(e) {
				found = e
				return true
			}
		}
		return false
	})
	return found
}
