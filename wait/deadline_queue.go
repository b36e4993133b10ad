package wait

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
)

// DeadlineOptions configures NewDeadlineQueue.
type DeadlineOptions[T comparable] struct {
	// Clock times the deadlines. Defaults to clock.Real.
	Clock clock.Clock
	// Less orders items due at the same time, so they come out in a fixed
	// order. Defaults to the order in which they were added.
	Less func(a, b T) bool
}

// DeadlineQueue holds items each due at a time, earliest first, at most
// once each, and one clock timer set for the earliest. Its owner runs Run,
// which calls back when an item may be due, and takes the due items with
// PopDue. Safe for concurrent use; it never calls out while holding its
// lock, so callers may hold their own lock across its methods.
//
// Every method that changes the queue arms the timer before it returns,
// at the earliest item's own time (Timer.ResetAt), never at a duration
// computed from a reading of the clock. So a caller that adds an item and
// then steps a fake clock past its deadline always fires it, and a step
// that lands while the queue arms cannot push the deadline late: the
// timer is never armed a step late. An item already due fires the timer
// at once, so Run is woken without waiting for a step.
//
// Upstream: k8s.io/client-go/util/workqueue (delayingType's waitingLoop
// and its waitForPriorityQueue).
type DeadlineQueue[T comparable] struct {
	clock clock.Clock
	less  func(a, b T) bool
	// timer is created stopped and only reset, so its channel, which Run
	// selects on, never changes.
	timer clock.Timer

	// mu guards the fields below.
	mu sync.Mutex
	h  deadlineHeap[T]
	// seq numbers additions, for the default order among equal times.
	seq uint64
	// armed says timer is set, for armedAt.
	armed   bool
	armedAt time.Time
	// stopped is set when Run returns: no timer is armed after it.
	stopped bool
}

// NewDeadlineQueue returns an empty DeadlineQueue. It starts no
// goroutine; Run serves it.
func NewDeadlineQueue[T comparable](opts DeadlineOptions[T]) *DeadlineQueue[T] {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	q := &DeadlineQueue[T]{
		clock: opts.Clock,
		less:  opts.Less,
		timer: opts.Clock.NewTimer(time.Hour),
		h:     deadlineHeap[T]{index: map[T]int{}},
	}
	q.h.less = q.lessEntry
	q.timer.Stop()
	return q
}

// AddAt makes item due at t; an item already queued keeps the earlier of
// its two times.
func (q *DeadlineQueue[T]) AddAt(item T, t time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if i, ok := q.h.index[item]; ok {
		if !t.Before(q.h.entries[i].at) {
			return
		}
		q.h.entries[i].at = t
		heap.Fix(&q.h, i)
	} else {
		q.pushLocked(item, t)
	}
	q.armLocked()
}

// SetAt makes item due at t, earlier or later than before.
func (q *DeadlineQueue[T]) SetAt(item T, t time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if i, ok := q.h.index[item]; ok {
		q.h.entries[i].at = t
		heap.Fix(&q.h, i)
	} else {
		q.pushLocked(item, t)
	}
	q.armLocked()
}

// Remove drops item if it is queued.
func (q *DeadlineQueue[T]) Remove(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if i, ok := q.h.index[item]; ok {
		heap.Remove(&q.h, i)
		q.armLocked()
	}
}

// PopDue removes and returns the earliest item if it is due at now, with
// the time it was due at; ok is false when none is.
func (q *DeadlineQueue[T]) PopDue(now time.Time) (item T, at time.Time, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.h.entries) == 0 || q.h.entries[0].at.After(now) {
		return item, at, false
	}
	e := heap.Pop(&q.h).(deadlineEntry[T])
	q.armLocked()
	return e.item, e.at, true
}

// Next returns the earliest time an item is due at; ok is false when the
// queue is empty.
func (q *DeadlineQueue[T]) Next() (at time.Time, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.h.entries) == 0 {
		return at, false
	}
	return q.h.entries[0].at, true
}

// Due reports whether an item is due at the clock's time.
func (q *DeadlineQueue[T]) Due() bool {
	at, ok := q.Next()
	return ok && !at.After(q.clock.Now())
}

// Len returns how many items are queued.
func (q *DeadlineQueue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.h.entries)
}

// Run calls due each time the timer fires, that is each time an item may
// have become due, until ctx is done; then it stops the timer for good and
// returns. A timer that fired before Run started listening keeps its
// value until Run receives it. due runs on Run's goroutine, without the
// queue's lock, and takes the due items with PopDue. Run may be called
// once.
func (q *DeadlineQueue[T]) Run(ctx context.Context, due func()) {
	for {
		select {
		case <-ctx.Done():
			q.Stop()
			return
		case <-q.timer.C():
			q.mu.Lock()
			q.armed = false
			q.mu.Unlock()
		}
		due()
		// due may have taken nothing (an item moved later meanwhile), and
		// a fired timer is armed for nothing: arm it for what is left.
		q.mu.Lock()
		q.armLocked()
		q.mu.Unlock()
	}
}

// Stop stops the timer for good; Run returns by itself when its ctx ends,
// so only an owner that never runs Run needs Stop.
func (q *DeadlineQueue[T]) Stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stopped = true
	q.armed = false
	q.timer.Stop()
}

func (q *DeadlineQueue[T]) pushLocked(item T, t time.Time) {
	q.seq++
	heap.Push(&q.h, deadlineEntry[T]{item: item, at: t, seq: q.seq})
}

// armLocked sets the timer for the earliest item; one already due fires
// it at once.
func (q *DeadlineQueue[T]) armLocked() {
	if q.stopped {
		return
	}
	if len(q.h.entries) == 0 {
		if q.armed {
			q.timer.Stop()
			q.armed = false
		}
		return
	}
	next := q.h.entries[0].at
	if q.armed && next.Equal(q.armedAt) {
		return
	}
	q.timer.ResetAt(next)
	q.armed, q.armedAt = true, next
}

func (q *DeadlineQueue[T]) lessEntry(a, b deadlineEntry[T]) bool {
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	if q.less != nil {
		return q.less(a.item, b.item)
	}
	return a.seq < b.seq
}

// deadlineEntry is an item, when it is due, and when it was added.
type deadlineEntry[T comparable] struct {
	item T
	at   time.Time
	seq  uint64
}

// deadlineHeap is a min-heap of entries by less, with an index to find an
// item's entry. Invariant: index[e.item] == i for every entries[i] == e.
type deadlineHeap[T comparable] struct {
	entries []deadlineEntry[T]
	index   map[T]int
	less    func(a, b deadlineEntry[T]) bool
}

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (h *deadlineHeap[T]) Len() int           { return len(h.entries) }
func (h *deadlineHeap[T]) Less(i, j int) bool { return h.less(h.entries[i], h.entries[j]) }
func (h *deadlineHeap[T]) Swap(i, j int) {
	h.entries[i], h.entries[j] = h.entries[j], h.entries[i]
	h.index[h.entries[i].item] = i
	h.index[h.entries[j].item] = j
}

func (h *deadlineHeap[T]) Push(x any) {
	e := x.(deadlineEntry[T])
	h.index[e.item] = len(h.entries)
	h.entries = append(h.entries, e)
}

func (h *deadlineHeap[T]) Pop() any {
	n := len(h.entries) - 1
	e := h.entries[n]
	h.entries[n] = deadlineEntry[T]{}
	h.entries = h.entries[:n]
	delete(h.index, e.item)
	return e
}
