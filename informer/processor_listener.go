package informer

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/minicp/minicp/api/runtime"
)

// notificationKind says which handler method a notification calls.
type notificationKind int

const (
	addNotification notificationKind = iota
	updateNotification
	deleteNotification
	// syncedNotification calls nothing: it marks the end of the state a
	// listener started with, and closes its syncedCh.
	syncedNotification
)

// notification is one call to make on a handler.
type notification struct {
	kind            notificationKind
	oldObj, newObj  runtime.Object
	deleted         any
	isInInitialList bool
}

// firstWarnBacklog is the backlog at which a listener first warns that
// its handler is falling behind. client-go preallocates a 1024-entry
// buffer per listener; here the buffer grows on demand, because a
// cluster has some fifty listeners that are almost always empty, and
// 64 KiB each was a fifth of what a cluster allocated to start.
const firstWarnBacklog = 2048

// processorListener relays notifications from a SharedInformer to one
// handler, so that a slow handler delays only itself.
//
// The informer's goroutine calls add, which appends to pending and never
// blocks; the listener's own goroutine (run) takes notifications from the
// front and calls the handler, one at a time, in order.
//
// The slow-consumer policy is explicit: pending grows without bound,
// because dropping a notification would leave the handler's view of the
// world wrong for good, and blocking would stall every other handler of
// the informer. A handler that falls behind costs memory only; a Warn is
// logged when its backlog reaches firstWarnBacklog and each time it doubles, so a stuck
// handler is visible. client-go makes the same trade with its growing
// ring buffer.
//
// Resync: a listener with a resyncPeriod is due at nextResync; the
// informer's shouldResync picks the due listeners, and only they receive
// the Sync deltas that follow.
//
// Upstream: k8s.io/client-go/tools/cache (processorListener). client-go
// uses two goroutines and channels (pop, run); one goroutine and a mutex
// do the same here.
type processorListener struct {
	handler      ResourceEventHandler
	log          *slog.Logger
	resyncPeriod time.Duration
	// nextResync is guarded by the SharedInformer's mu.
	nextResync time.Time
	// syncedCh is closed when the handler has been given the listener's
	// initial state.
	syncedCh chan struct{}
	// cancel stops run; set before run starts.
	cancel context.CancelFunc

	// mu guards pending, head and warnAt. pending[head:] are the
	// notifications not yet handled, oldest first.
	mu      sync.Mutex
	pending []notification
	head    int
	warnAt  int
	// wakeCh (capacity 1) tells run that pending is no longer empty. A
	// full wakeCh already says so, so add never blocks on it.
	wakeCh chan struct{}
}

func newProcessorListener(h ResourceEventHandler, resyncPeriod time.Duration, now time.Time, log *slog.Logger) *processorListener {
	return &processorListener{
		handler:      h,
		log:          log,
		resyncPeriod: resyncPeriod,
		nextResync:   now.Add(resyncPeriod),
		syncedCh:     make(chan struct{}),
		warnAt:       firstWarnBacklog,
		wakeCh:       make(chan struct{}, 1),
	}
}

// add queues n. It never blocks.
func (l *processorListener) add(n notification) {
	l.mu.Lock()
	l.pending = append(l.pending, n)
	backlog, warn := len(l.pending)-l.head, false
	if backlog >= l.warnAt {
		l.warnAt *= 2
		warn = true
	}
	l.mu.Unlock()
	// Log after unlocking: a log handler does I/O.
	if warn {
		l.log.Warn("event handler is falling behind", "backlog", backlog)
	}
	select {
	case l.wakeCh <- struct{}{}:
	default:
	}
}

// next removes and returns the oldest pending notification.
func (l *processorListener) next() (notification, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.head == len(l.pending) {
		return notification{}, false
	}
	n := l.pending[l.head]
	l.pending[l.head] = notification{} // let the objects be collected
	l.head++
	switch {
	case l.head == len(l.pending):
		l.pending, l.head = l.pending[:0], 0
	case l.head > cap(l.pending)/2:
		// Most of the array is handled: move the rest to the front, so a
		// handler that is always a little behind does not grow it forever.
		rest := copy(l.pending, l.pending[l.head:])
		clear(l.pending[rest:])
		l.pending, l.head = l.pending[:rest], 0
	}
	return n, true
}

// run calls the handler for each notification until ctx ends; what is
// still pending then is dropped.
func (l *processorListener) run(ctx context.Context) {
	for {
		n, ok := l.next()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-l.wakeCh:
			}
			continue
		}
		if ctx.Err() != nil {
			return
		}
		l.dispatch(n)
	}
}

// dispatch makes one handler call. A panicking handler is logged and the
// listener goes on: the handler call is a trust boundary.
func (l *processorListener) dispatch(n notification) {
	defer func() {
		if p := recover(); p != nil {
			l.log.Error("event handler panicked", "panic", p)
		}
	}()
	switch n.kind {
	case addNotification:
		l.handler.OnAdd(n.newObj, n.isInInitialList)
	case updateNotification:
		l.handler.OnUpdate(n.oldObj, n.newObj)
	case deleteNotification:
		l.handler.OnDelete(n.deleted)
	case syncedNotification:
		select {
		case <-l.syncedCh:
		default:
			close(l.syncedCh)
		}
	}
}

// shouldResyncLocked reports whether the listener is due at now, and if so
// schedules its next resync. The informer's mu must be held.
func (l *processorListener) shouldResyncLocked(now time.Time) bool {
	if l.resyncPeriod <= 0 || now.Before(l.nextResync) {
		return false
	}
	l.nextResync = now.Add(l.resyncPeriod)
	return true
}
