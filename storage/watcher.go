package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/metadata"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
)

// watchChanSize bounds a watch's result channel. 100 is Kubernetes'
// outgoing buffer: it absorbs a burst (the ADDED events of a small initial
// list, the writes of one busy moment) so the producer need not wait on
// every send, while a stalled consumer pins at most 100 decoded objects.
// When it is full the producer blocks; etcd's client then holds the events
// it keeps receiving. Nothing is ever dropped: a consumer that cannot keep
// up is the watch cache's problem to cut off, not storage's.
const watchChanSize = 100

// watchSyncPageSize is how many keys one read of a watch's initial list
// takes, so a watch from "0" on a large prefix never asks etcd for
// everything in one response; Kubernetes uses the same 500.
const watchSyncPageSize = 500

// Watch starts a watch of key (every key below it when opts.Recursive) and
// returns at once; errors in key or opts.ResourceVersion are returned
// directly, everything later arrives as an Error event.
//
// With ResourceVersion "" or "0" the watch first lists the current state
// (at one revision R) as ADDED events, then streams changes after R. With
// "N" it streams changes after N; if etcd has compacted N away, the only
// event is an Error whose Object is a *metav1.Status 410 Expired. Puts are
// ADDED (a create) or MODIFIED, deletes are DELETED carrying the last state
// with the revision of the delete. With a selector, an object that starts
// matching is ADDED and one that stops matching is DELETED (its previous
// state, at the new revision). With opts.ProgressNotify, etcd's progress
// notifications become Bookmark events: an object from NewFunc whose only
// field set is its resourceVersion. etcd sends one to a watch that has had
// no event for its progress interval (10 minutes unless configured, see
// EmbeddedOptions), and only once etcd's revision has reached the watch's
// start: a watch of a quiet etcd gets none.
//
// One goroutine, owned by the returned watcher, reads etcd, translates and
// sends; it blocks while the result channel (watchChanSize) is full. It
// closes ResultChan when it ends: after ctx is done, after Stop, or after
// sending an Error event. Stop is idempotent, safe from any goroutine, and
// returns once that goroutine has exited.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (watcher.Watch, watchChan).
func (s *Store) Watch(ctx context.Context, key string, opts ListOptions) (watch.Interface, error) {
	preparedKey, err := s.prepareKey(key)
	if err != nil {
		return nil, err
	}
	// A recursive watch of "/pods/default" must not see "/pods/default2/x".
	if opts.Recursive && !strings.HasSuffix(preparedKey, "/") {
		preparedKey += "/"
	}
	rv, err := parseResourceVersion(key, opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &watcher{
		store:          s,
		key:            key,
		watchKey:       preparedKey,
		recursive:      opts.Recursive,
		pred:           opts.Predicate,
		progressNotify: opts.ProgressNotify,
		rv:             rv,
		cancel:         cancel,
		resultCh:       make(chan watch.Event, watchChanSize),
	}
	w.wg.Go(func() {
		defer close(w.resultCh)
		w.run(ctx)
	})
	return w, nil
}

// WithWatchStream returns a context whose watches, and RequestWatchProgress
// calls, use a gRPC stream of their own, named name (unique per caller).
// etcd answers a progress request only when every watch of the stream is
// current, and the client hands its notification to every watch of the
// stream: a watch cache that shares its stream with the other resources'
// caches, and with other clusters' on a shared etcd, waits for progress
// behind watches that are busy, and may be handed a revision its own
// watch has not delivered the events up to yet. Each watch cache runs its
// storage watch on a stream of its own, as each kube-apiserver resource
// has an etcd client of its own.
func WithWatchStream(ctx context.Context, name string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, watchStreamKey, name)
}

// watchStreamKey is the gRPC metadata key WithWatchStream sets; the etcd
// client keys its watch streams by their context's metadata.
const watchStreamKey = "minicp-watch-stream"

// RequestWatchProgress asks etcd to send, soon, a progress notification to
// every watch of this Store's client that asked for them
// (ListOptions.ProgressNotify): each gets a Bookmark at etcd's current
// revision, instead of waiting out etcd's progress interval (10 minutes by
// default). etcd answers only when all those watches are up to date, and
// not at all for a watch whose start revision etcd has not reached, so a
// caller that needs the bookmark asks again after a while. It does not
// block beyond handing the request to the client. The request goes to
// the stream of the watches whose context carries the same gRPC metadata
// (see WithWatchStream); Watch adds only "require leader".
//
// It is an optional capability, not part of Interface: the watch cache
// (watchcache.Cacher) looks for it by type assertion to bring its
// resourceVersion up to a revision a client asks for.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.RequestWatchProgress).
func (s *Store) RequestWatchProgress(ctx context.Context) error {
	if err := s.client.RequestProgress(clientv3.WithRequireLeader(ctx)); err != nil {
		return fmt.Errorf("request watch progress: %w", err)
	}
	return nil
}

// watcher is one running watch. Its goroutine (run) is the only sender on
// resultCh and closes it when it returns.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (watchChan).
type watcher struct {
	store *Store
	// key is the caller's key, for errors and logs; watchKey is the etcd key
	// or prefix watched.
	key            string
	watchKey       string
	recursive      bool
	pred           Predicate
	progressNotify bool
	// rv is the resourceVersion the watch starts after; 0 lists first.
	rv int64

	cancel   context.CancelFunc
	wg       sync.WaitGroup
	resultCh chan watch.Event
}

// Stop ends the watch and waits for its goroutine to exit. The wait is
// short: every blocking step of the goroutine also selects on the context
// Stop cancels.
func (w *watcher) Stop() {
	w.cancel()
	w.wg.Wait()
}

// ResultChan returns the events; the watcher closes it when the watch ends.
func (w *watcher) ResultChan() <-chan watch.Event { return w.resultCh }

// run lists (for rv 0), then streams, until ctx is done or an error was
// sent.
func (w *watcher) run(ctx context.Context) {
	logger := w.store.logger.With("key", w.key, "rv", w.rv)
	logger.DebugContext(ctx, "watch started")
	defer logger.DebugContext(ctx, "watch stopped")

	from := w.rv
	if from == 0 {
		rev, err := w.sync(ctx)
		if err != nil {
			w.fail(ctx, err)
			return
		}
		from = rev
	}
	ops := []clientv3.OpOption{clientv3.WithRev(from + 1), clientv3.WithPrevKV()}
	if w.recursive {
		ops = append(ops, clientv3.WithPrefix())
	}
	if w.progressNotify {
		ops = append(ops, clientv3.WithProgressNotify())
	}
	// WithRequireLeader makes etcd cancel the watch when its member loses
	// the leader, instead of leaving it silently stale.
	wch := w.store.client.Watch(clientv3.WithRequireLeader(ctx), w.watchKey, ops...)
	for {
		var resp clientv3.WatchResponse
		var ok bool
		select {
		case <-ctx.Done():
			return
		case resp, ok = <-wch:
		}
		switch {
		case !ok:
			w.fail(ctx, errors.New("etcd closed the watch"))
			return
		case resp.Err() != nil:
			if resp.CompactRevision != 0 {
				w.fail(ctx, &compactedError{rv: from, compactRev: resp.CompactRevision})
			} else {
				w.fail(ctx, resp.Err())
			}
			return
		case resp.IsProgressNotify():
			if !w.progressNotify {
				continue
			}
			if !w.send(ctx, watch.Event{Type: watch.Bookmark, Object: w.bookmark(resp.Header.Revision)}) {
				return
			}
			continue
		}
		for _, e := range resp.Events {
			ev, err := w.transform(ctx, e)
			if err != nil {
				w.fail(ctx, err)
				return
			}
			if ev.Type == "" {
				continue
			}
			if !w.send(ctx, ev) {
				return
			}
		}
	}
}

// sync sends the current state as ADDED events, reading it in pages all
// pinned to the revision of the first page, and returns that revision.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (watchChan.sync).
func (w *watcher) sync(ctx context.Context) (int64, error) {
	var ops []clientv3.OpOption
	if w.recursive {
		ops = append(ops, clientv3.WithRange(clientv3.GetPrefixRangeEnd(w.watchKey)), clientv3.WithLimit(watchSyncPageSize))
	}
	start := w.watchKey
	var rev int64
	for {
		resp, err := w.store.client.Get(ctx, start, ops...)
		if err != nil {
			return 0, err
		}
		if len(resp.Kvs) == 0 && resp.More {
			return 0, errors.New("etcd returned no keys but said more remain")
		}
		if rev == 0 {
			rev = resp.Header.Revision
			ops = append(ops, clientv3.WithRev(rev))
		}
		objs, err := w.store.decodeAll(ctx, w.store.storedValues(resp.Kvs))
		if err != nil {
			return 0, err
		}
		for _, obj := range objs {
			matched, err := w.pred.Matches(obj)
			if err != nil {
				return 0, err
			}
			if matched && !w.send(ctx, watch.Event{Type: watch.Added, Object: obj}) {
				return 0, ctx.Err()
			}
		}
		if !resp.More {
			return rev, nil
		}
		start = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// transform turns one etcd event into a watch event, or into an event with
// an empty Type when the predicate filters it out.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (watchChan.transform).
func (w *watcher) transform(ctx context.Context, e *clientv3.Event) (watch.Event, error) {
	key := w.store.unprefix(e.Kv.Key)
	// For a delete, Kv.ModRevision is the revision of the delete; the
	// previous state is reported at the revision that ended it.
	rev := e.Kv.ModRevision
	if e.Type == clientv3.EventTypeDelete {
		if e.PrevKv == nil {
			return watch.Event{}, fmt.Errorf("etcd DELETE event for %s at revision %d has no previous value", key, rev)
		}
		old, err := w.store.decode(ctx, key, e.PrevKv.Value, rev)
		if err != nil {
			return watch.Event{}, err
		}
		return w.filter(watch.Deleted, old)
	}
	// A put with no previous value is a create, or a put whose previous
	// value etcd no longer has; ADDED is the best either can be, and
	// informers treat an ADDED for an object they hold as an update.
	if e.IsCreate() || e.PrevKv == nil || w.pred.Empty() {
		cur, err := w.store.decode(ctx, key, e.Kv.Value, rev)
		if err != nil {
			return watch.Event{}, err
		}
		if e.IsCreate() || e.PrevKv == nil {
			return w.filter(watch.Added, cur)
		}
		return watch.Event{Type: watch.Modified, Object: cur}, nil
	}
	// Both states are decoded (and converted) together.
	states, err := w.store.decodeAll(ctx, []storedValue{{key: key, data: e.Kv.Value, rev: rev}, {key: key, data: e.PrevKv.Value, rev: rev}})
	if err != nil {
		return watch.Event{}, err
	}
	cur, old := states[0], states[1]
	curMatches, err := w.pred.Matches(cur)
	if err != nil {
		return watch.Event{}, err
	}
	oldMatches, err := w.pred.Matches(old)
	if err != nil {
		return watch.Event{}, err
	}
	switch {
	case curMatches && oldMatches:
		return watch.Event{Type: watch.Modified, Object: cur}, nil
	case curMatches:
		return watch.Event{Type: watch.Added, Object: cur}, nil
	case oldMatches:
		return watch.Event{Type: watch.Deleted, Object: old}, nil
	}
	return watch.Event{}, nil
}

// filter returns an event of type t for obj if obj matches the predicate.
func (w *watcher) filter(t watch.EventType, obj runtime.Object) (watch.Event, error) {
	matched, err := w.pred.Matches(obj)
	if err != nil || !matched {
		return watch.Event{}, err
	}
	return watch.Event{Type: t, Object: obj}, nil
}

// bookmark returns the object of a Bookmark event at revision rev.
func (w *watcher) bookmark(rev int64) runtime.Object {
	obj := w.store.newFunc()
	metav1.MustAccessor(obj).ResourceVersion = strconv.FormatInt(rev, 10)
	return obj
}

// send hands ev to the consumer, blocking while the channel is full. It
// returns false when ctx ended first.
func (w *watcher) send(ctx context.Context, ev watch.Event) bool {
	select {
	case w.resultCh <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// fail sends err as the watch's last event, an Error carrying a Status:
// 410 Expired for a compacted revision, the Status err carries (from a
// Converter), 500 InternalError for anything else. An error caused by ctx ending is no failure and sends nothing.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (transformErrorToEvent).
func (w *watcher) fail(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	w.store.logger.WarnContext(ctx, "watch ended", "key", w.key, "rv", w.rv, "err", err)
	var status *apierrors.StatusError
	var compacted *compactedError
	switch {
	case errors.As(err, &compacted):
		status = apierrors.NewResourceExpired(compacted.Error())
	case errors.Is(err, rpctypes.ErrCompacted):
		status = apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d", w.rv))
	case errors.As(err, &status):
		// A Converter's own Status (a failed conversion webhook).
	default:
		status = apierrors.NewInternalError(err)
	}
	s := status.Status()
	w.send(ctx, watch.Event{Type: watch.Error, Object: &s})
}

// compactedError is a watch that starts at a revision etcd has compacted.
type compactedError struct {
	rv, compactRev int64
}

func (e *compactedError) Error() string {
	return fmt.Sprintf("too old resource version: %d (%d)", e.rv, e.compactRev)
}
