package workqueue

import (
	"container/heap"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
)

// DelayingOptions configures NewDelaying.
type DelayingOptions struct {
	// Clock times AddAfter. Defaults to clock.Real.
	Clock clock.Clock
}

// DelayingQueue is a Queue with AddAfter. A goroutine owned by the queue
// moves items whose delay has passed into the Queue; ShutDown and
// ShutDownWithDrain stop it (dropping items still waiting) and wait for
// it. Safe for concurrent use.
//
// Upstream: k8s.io/client-go/util/workqueue (delayingType).
type DelayingQueue[T comparable] struct {
	*Queue[T]
	clock clock.Clock

	// mu guards waiting: the items not ready yet, earliest first, each
	// once, at its earliest requested time.
	mu      sync.Mutex
	waiting waitHeap[T]

	// wakeCh (capacity 1) tells the loop that waiting changed.
	wakeCh   chan struct{}
	stopCh   chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// NewDelaying returns an empty DelayingQueue and starts its goroutine;
// ShutDown stops it.
func NewDelaying[T comparable](opts DelayingOptions) *DelayingQueue[T] {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	q := &DelayingQueue[T]{
		Queue:   New[T](),
		clock:   opts.Clock,
		waiting: waitHeap[T]{index: map[T]int{}},
		wakeCh:  make(chan struct{}, 1),
		stopCh:  make(chan struct{}),
	}
	q.wg.Go(q.waitingLoop)
	return q
}

// AddAfter adds item once d has passed on the clock; d <= 0 adds it now.
// An item already waiting keeps the earlier of its two times. After
// ShutDown it does nothing.
func (q *DelayingQueue[T]) AddAfter(item T, d time.Duration) {
	if q.ShuttingDown() {
		return
	}
	if d <= 0 {
		q.Add(item)
		return
	}
	readyAt := q.clock.Now().Add(d)
	q.mu.Lock()
	q.waiting.addOrEarlier(item, readyAt)
	q.mu.Unlock()
	select {
	case q.wakeCh <- struct{}{}:
	default: // the loop is already due to look
	}
}

// ShutDown stops the queue (see Queue.ShutDown) and the delay goroutine.
func (q *DelayingQueue[T]) ShutDown() {
	q.stop()
	q.Queue.ShutDown()
}

// ShutDownWithDrain stops the delay goroutine and drains the queue (see
// Queue.ShutDownWithDrain).
func (q *DelayingQueue[T]) ShutDownWithDrain() {
	q.stop()
	q.Queue.ShutDownWithDrain()
}

func (q *DelayingQueue[T]) stop() {
	q.stopOnce.Do(func() { close(q.stopCh) })
	q.wg.Wait()
}

// waitingLoop moves ready items into the queue and sleeps, on the clock,
// until the next one is ready or AddAfter wakes it.
func (q *DelayingQueue[T]) waitingLoop() {
	for {
		now := q.clock.Now()
		q.mu.Lock()
		var ready []T
		for q.waiting.Len() > 0 && !q.waiting.peek().readyAt.After(now) {
			ready = append(ready, heap.Pop(&q.waiting).(waitEntry[T]).item)
		}
		var next time.Duration
		if q.waiting.Len() > 0 {
			next = q.waiting.peek().readyAt.Sub(now)
		}
		q.mu.Unlock()
		// Add outside mu: it takes the Queue's lock.
		for _, item := range ready {
			q.Add(item)
		}

		var timer clock.Timer
		var timerC <-chan time.Time
		if next > 0 {
			timer = q.clock.NewTimer(next)
			timerC = timer.C()
			// A fake clock stepped between reading now and arming the
			// timer would arm it a step late, and the step that should
			// fire it has passed: look again. (A real clock moves by
			// microseconds here, far below the threshold.)
			if q.clock.Since(now) > time.Millisecond {
				timer.Stop()
				continue
			}
		}
		select {
		case <-q.stopCh:
		case <-q.wakeCh:
		case <-timerC:
		}
		if timer != nil {
			timer.Stop()
		}
		select {
		case <-q.stopCh:
			return
		default:
		}
	}
}

// waitEntry is an item and when it is ready.
type waitEntry[T comparable] struct {
	item    T
	readyAt time.Time
}

// waitHeap is a min-heap of waitEntry by readyAt, with an index to find an
// item's entry.
type waitHeap[T comparable] struct {
	entries []waitEntry[T]
	index   map[T]int
}

// Len, Less and Swap implement heap.Interface.
func (h *waitHeap[T]) Len() int           { return len(h.entries) }
func (h *waitHeap[T]) Less(i, j int) bool { return h.entries[i].readyAt.Before(h.entries[j].readyAt) }
func (h *waitHeap[T]) Swap(i, j int) {
	h.entries[i], h.entries[j] = h.entries[j], h.entries[i]
	h.index[h.entries[i].item] = i
	h.index[h.entries[j].item] = j
}

// Push implements heap.Interface; use addOrEarlier.
func (h *waitHeap[T]) Push(x any) {
	e := x.(waitEntry[T])
	h.index[e.item] = len(h.entries)
	h.entries = append(h.entries, e)
}

// Pop implements heap.Interface.
func (h *waitHeap[T]) Pop() any {
	n := len(h.entries) - 1
	e := h.entries[n]
	h.entries = h.entries[:n]
	delete(h.index, e.item)
	return e
}

func (h *waitHeap[T]) peek() waitEntry[T] { return h.entries[0] }

// addOrEarlier adds item at readyAt, or moves it earlier if it waits for
// a later time.
func (h *waitHeap[T]) addOrEarlier(item T, readyAt time.Time) {
	if i, ok := h.index[item]; ok {
		if readyAt.Before(h.entries[i].readyAt) {
			h.entries[i].readyAt = readyAt
			heap.Fix(h, i)
		}
		return
	}
	heap.Push(h, waitEntry[T]{item: item, readyAt: readyAt})
}
