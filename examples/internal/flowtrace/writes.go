package flowtrace

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/wait"
)

// Version is an object as one revision left it.
type Version struct {
	Rev    int64
	Type   watch.EventType
	Object runtime.Object
}

// Writes keeps every version of the objects it watches, by the revision
// that wrote it: a span says which revision a write made, and Writes
// what it made. Safe for concurrent use.
type Writes struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// changed is notified after each version is kept.
	changed wait.Broadcast

	// mu guards byRev.
	mu    sync.Mutex
	byRev map[int64]Version
}

// WatchFunc starts one watch, e.g. a typed client's Watch bound to its
// options.
type WatchFunc func(ctx context.Context) (watch.Interface, error)

// Watch starts the watches and keeps what they deliver until Stop.
func Watch(ctx context.Context, starts ...WatchFunc) (*Writes, error) {
	ctx, cancel := context.WithCancel(ctx)
	w := &Writes{cancel: cancel, byRev: map[int64]Version{}}
	var ws []watch.Interface
	for _, start := range starts {
		wi, err := start(ctx)
		if err != nil {
			for _, wi := range ws {
				wi.Stop()
			}
			cancel()
			return nil, fmt.Errorf("watch: %w", err)
		}
		ws = append(ws, wi)
	}
	for _, wi := range ws {
		w.wg.Go(func() { w.keep(ctx, wi) })
	}
	return w, nil
}

// keep stores what wi delivers until it ends or ctx does.
func (w *Writes) keep(ctx context.Context, wi watch.Interface) {
	defer wi.Stop()
	for {
		select {
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return
			}
			meta, err := metav1.Accessor(ev.Object)
			if err != nil {
				continue // a Status, say: no version of an object
			}
			rev, _ := strconv.ParseInt(meta.ResourceVersion, 10, 64)
			w.mu.Lock()
			w.byRev[rev] = Version{Rev: rev, Type: ev.Type, Object: ev.Object}
			w.mu.Unlock()
			w.changed.Notify()
		case <-ctx.Done():
			return
		}
	}
}

// Stop ends the watches and waits for them.
func (w *Writes) Stop() {
	w.cancel()
	w.wg.Wait()
}

// At returns the version rev wrote, waiting for its watch event: a
// write's event may reach this watch after the cluster is idle, since
// the watch is none of the cluster's components.
func (w *Writes) At(ctx context.Context, rev int64) (Version, error) {
	for {
		changed := w.changed.Wait()
		w.mu.Lock()
		v, ok := w.byRev[rev]
		w.mu.Unlock()
		if ok {
			return v, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return Version{}, fmt.Errorf("waiting for the watch event of revision %d: %w", rev, ctx.Err())
		}
	}
}

// Between returns the versions kept with from < Rev <= to, in revision
// order.
func (w *Writes) Between(from, to int64) []Version {
	w.mu.Lock()
	var out []Version
	for rev, v := range w.byRev {
		if rev > from && rev <= to {
			out = append(out, v)
		}
	}
	w.mu.Unlock()
	slices.SortFunc(out, func(a, b Version) int { return int(a.Rev - b.Rev) })
	return out
}

// Before returns the version of v's object that the last write before
// v's left, false when v's write created it (or the watch began after).
func (w *Writes) Before(v Version) (Version, bool) {
	uid := uidOf(v.Object)
	w.mu.Lock()
	defer w.mu.Unlock()
	var prev Version
	found := false
	for rev, o := range w.byRev {
		if rev < v.Rev && uidOf(o.Object) == uid && (!found || rev > prev.Rev) {
			prev, found = o, true
		}
	}
	return prev, found
}

// Changed returns a channel closed when the next version is kept.
func (w *Writes) Changed() <-chan struct{} { return w.changed.Wait() }

func uidOf(obj runtime.Object) string {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return ""
	}
	return meta.UID
}
