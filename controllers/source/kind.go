package source

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// KindSource is the source of one resource's changes: a handler on the
// cache's informer of it. Make one with Kind.
//
// The initial state. A handler added to an informer first receives the
// objects it holds (or lists) as adds, and upstream waits for those to be
// delivered by polling the registration. minicp has no channel for that,
// so KindSource skips the informer's initial-list adds and instead, once
// the informer has synced, calls Create for every object in its cache
// itself, before WaitForSync returns. The handler sees the same events,
// and when WaitForSync returns every cached object's Requests are on the
// queue, which is what makes a controller's Idle exact at start. An
// object that changes meanwhile may be reported twice; the queue folds
// the duplicate.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/internal/source (Kind).
type KindSource struct {
	cache   *cache.Cache
	obj     runtime.Object
	handler handler.EventHandler

	// syncedCh is closed once the initial state is on the queue, or Start
	// failed (err says so).
	syncedCh chan struct{}
	// handled tracks what the handler has handled, for CaughtUp, and
	// notifies changed at each record.
	handled *informer.HandledTracker
	changed *wait.Broadcast
	// mu guards the fields below; err and indexer are set before syncedCh
	// is closed.
	mu      sync.Mutex
	started bool
	err     error
	indexer *informer.Indexer
}

var _ SyncingSource = (*KindSource)(nil)

// Kind returns the source of the changes to obj's resource, such as
// Kind(c, &corev1.Pod{}, h) for pods; obj is only a prototype. Errors,
// such as a type missing from the cache's scheme, are reported by Start.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/source (Kind).
func Kind(c *cache.Cache, obj runtime.Object, h handler.EventHandler) *KindSource {
	changed := &wait.Broadcast{}
	return &KindSource{cache: c, obj: obj, handler: h, syncedCh: make(chan struct{}),
		handled: informer.NewHandledTracker(changed), changed: changed}
}

// Start implements Source.
func (k *KindSource) Start(ctx context.Context, q handler.Queue) error {
	k.mu.Lock()
	started := k.started
	k.started = true
	k.mu.Unlock()
	if started {
		return errors.New("source: Kind started twice")
	}
	if k.cache == nil || k.obj == nil || k.handler == nil {
		return k.fail(errors.New("source: Kind needs a cache, an object and a handler"))
	}
	inf, err := k.cache.GetInformer(k.obj)
	if err != nil {
		return k.fail(fmt.Errorf("source: %w", err))
	}
	a := &eventAdapter{ctx: ctx, handler: k.handler, queue: q, handled: k.handled}
	reg, err := inf.AddEventHandler(a, informer.HandlerOptions{})
	if err != nil {
		return k.fail(fmt.Errorf("source: %w", err))
	}
	// The listener may still be calling the handler after this returns;
	// the controller's queue ignores Adds once it has shut down.
	defer func() { _ = inf.RemoveEventHandler(reg) }()
	if inf.WaitForSync(ctx) != nil {
		return nil // ctx is done: stopping before sync is no error
	}
	a.replay(inf.Indexer().List())
	k.mu.Lock()
	k.indexer = inf.Indexer()
	k.mu.Unlock()
	close(k.syncedCh)
	<-ctx.Done()
	return nil
}

// fail records err for WaitForSync and returns it.
func (k *KindSource) fail(err error) error {
	k.mu.Lock()
	k.err = err
	k.mu.Unlock()
	close(k.syncedCh)
	return err
}

// WaitForSync implements SyncingSource.
func (k *KindSource) WaitForSync(ctx context.Context) error {
	select {
	case <-k.syncedCh:
		k.mu.Lock()
		defer k.mu.Unlock()
		return k.err
	case <-ctx.Done():
		return fmt.Errorf("source: wait for %T to sync: %w", k.obj, ctx.Err())
	}
}

// CaughtUp reports whether the source's handler has handled every object
// its informer holds, at its current resourceVersion, and every delete: no
// change the informer has seen is still on its way to the queue. It is
// false until the source has synced. changed is closed at the handler's
// next call. It is an optional capability of a source, which the
// controller's Idle checks.
func (k *KindSource) CaughtUp() (caughtUp bool, changed <-chan struct{}) {
	k.mu.Lock()
	indexer := k.indexer
	k.mu.Unlock()
	if indexer == nil {
		// Not synced: WaitForSync is the wait, and the tracker's next
		// record comes with the replay.
		return false, k.syncedCh
	}
	// Taken before the check, so a record between the two is not missed.
	changed = k.changed.Wait()
	return k.handled.CaughtUp(indexer), changed
}

// eventAdapter turns informer notifications into events for a handler,
// and records each handled object.
type eventAdapter struct {
	ctx     context.Context
	handler handler.EventHandler
	queue   handler.Queue
	handled *informer.HandledTracker
	// caused is the queue handed to the handler for one event, reused
	// under mu: it records the revision of the event's object as the
	// cause of what the handler enqueues (see causeQueue).
	caused causedQueue
	// mu serializes the handler's calls: the informer's listener calls it,
	// and so does replay, on Start's goroutine. It is held across the
	// call because handlers are written for one caller at a time, as
	// upstream's are; they only enqueue, so it is never held for long.
	mu sync.Mutex
}

var _ informer.ResourceEventHandler = (*eventAdapter)(nil)

// replay reports each object as created (see KindSource).
//
// Every handler call recovers the handler's panics (the listener would
// too, but replay runs on Start's goroutine), so the object is always
// recorded as handled and CaughtUp cannot stick at false.
func (a *eventAdapter) replay(objs []runtime.Object) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, obj := range objs {
		if o, ok := obj.(metav1.Object); ok {
			recoverHandler(a.ctx, func() { a.handler.Create(a.ctx, event.CreateEvent{Object: o}, a.queueFor(o)) })
			a.handled.Handled(obj)
		}
	}
}

// OnAdd implements informer.ResourceEventHandler. Initial-list adds are
// skipped: replay reports them.
func (a *eventAdapter) OnAdd(obj runtime.Object, isInInitialList bool) {
	o, ok := obj.(metav1.Object)
	if isInInitialList || !ok {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	recoverHandler(a.ctx, func() { a.handler.Create(a.ctx, event.CreateEvent{Object: o}, a.queueFor(o)) })
	a.handled.Handled(obj)
}

// OnUpdate implements informer.ResourceEventHandler.
func (a *eventAdapter) OnUpdate(oldObj, newObj runtime.Object) {
	o, okOld := oldObj.(metav1.Object)
	n, okNew := newObj.(metav1.Object)
	if !okOld || !okNew {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	recoverHandler(a.ctx, func() { a.handler.Update(a.ctx, event.UpdateEvent{ObjectOld: o, ObjectNew: n}, a.queueFor(n)) })
	a.handled.Handled(newObj)
}

// OnDelete implements informer.ResourceEventHandler, unwrapping the
// tombstone of a delete learned by relisting.
func (a *eventAdapter) OnDelete(obj any) {
	key, err := informer.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	ev := event.DeleteEvent{}
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		ev.DeleteStateUnknown = true
		obj = tomb.Obj
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if o, ok := obj.(metav1.Object); ok {
		ev.Object = o
		recoverHandler(a.ctx, func() { a.handler.Delete(a.ctx, ev, a.queueFor(o)) })
	}
	a.handled.Deleted(key)
}

// recoverHandler calls fn, logging a panic to ctx's logger instead of
// crashing: the handler call is a trust boundary (STYLE §7). The event is
// lost; the next one, or the resync, brings the object back.
func recoverHandler(ctx context.Context, fn func()) {
	defer func() {
		if p := recover(); p != nil {
			logging.FromContext(ctx).ErrorContext(ctx, "event handler panicked", "panic", p, "stack", string(debug.Stack()))
		}
	}()
	fn()
}

// causeQueue is the optional capability of a controller's queue to
// remember what caused a Request: the revision of the object whose event
// enqueued it, which the reconcile's span links to (the controller's
// queue has it).
type causeQueue interface {
	AddCausedBy(req reconcile.Request, rev int64)
}

// causedQueue is a handler.Queue that adds through a causeQueue with the
// revision of the event being handled.
type causedQueue struct {
	q   causeQueue
	rev int64
}

// Add implements handler.Queue.
func (c *causedQueue) Add(req reconcile.Request) { c.q.AddCausedBy(req, c.rev) }

// queueFor returns the queue to hand the handler for an event of obj:
// one that records obj's revision as the cause when the queue can.
// Called under mu.
func (a *eventAdapter) queueFor(obj metav1.Object) handler.Queue {
	cq, ok := a.queue.(causeQueue)
	if !ok {
		return a.queue
	}
	rev, err := strconv.ParseInt(obj.GetObjectMeta().ResourceVersion, 10, 64)
	if err != nil {
		return a.queue
	}
	a.caused = causedQueue{q: cq, rev: rev}
	return &a.caused
}
