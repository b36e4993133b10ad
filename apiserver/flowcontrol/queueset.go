package flowcontrol

import "sync"

// queueSet is the state of one Limited priority level: its seats and,
// for a level that queues, its queues. Requests that find no free seat
// wait in the shortest queue of their flow's hand; when a seat frees, the
// request dispatched next is the head of the queue with the earliest
// virtual start time, which serves the queues in turn (start-time fair
// queuing with every request costing one unit).
//
// Invariants, under mu:
//   - waiting is the sum of len(q.requests) over queues;
//   - executing <= concurrencyLimit, except right after a configuration
//     lowered the limit (no running request is stopped);
//   - a request is in a queue if and only if its outcome is pending.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset.
type queueSet struct {
	// mu guards everything below.
	mu               sync.Mutex
	concurrencyLimit int
	// queues is nil for a level that rejects instead of queuing.
	queues           []*fifo
	handSize         int
	queueLengthLimit int
	executing        int
	waiting          int
	// arrivals counts the requests queued, for waitingRequest.seq.
	arrivals uint64
	// virtualTime is the virtual start time of the request dispatched
	// last: a queue that was empty starts from it, so idle time earns a
	// flow no credit over the flows that kept the level busy.
	virtualTime float64
}

// fifo is one queue of a level.
type fifo struct {
	requests []*waitingRequest
	// nextStart is the virtual start time of the next request added
	// behind those in the queue.
	nextStart float64
	executing int
}

// outcome is what became of a queued request.
type outcome int

const (
	pending outcome = iota
	dispatched
	rejectedQueueFull
	rejectedConcurrencyLimit
	rejectedTimeout
	rejectedCancelled
	rejectedConfig
)

// waitingRequest is a request in a queue. readyCh is closed, by whoever
// sets outcome (under the queueSet's mu), once it is not pending.
type waitingRequest struct {
	hash  uint64
	start float64
	// seq is the request's arrival order in its level: of two queue
	// heads with the same start time, the earlier goes first.
	seq     uint64
	queue   *fifo
	outcome outcome
	readyCh chan struct{}
}

// config sets the level's seats and queue shape. Queued requests move to
// the new queues by their flows' hands; a level that stops queuing
// rejects them.
func (qs *queueSet) config(concurrencyLimit int, queues, handSize, queueLengthLimit int) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	qs.concurrencyLimit = concurrencyLimit
	qs.handSize, qs.queueLengthLimit = handSize, queueLengthLimit
	if queues == len(qs.queues) {
		qs.dispatchLocked()
		return
	}
	var queued []*waitingRequest
	for _, q := range qs.queues {
		queued = append(queued, q.requests...)
	}
	qs.queues = nil
	for range queues {
		qs.queues = append(qs.queues, &fifo{nextStart: qs.virtualTime})
	}
	qs.waiting = 0
	for _, r := range queued {
		if qs.queues == nil {
			qs.finishWaitingLocked(r, rejectedConfig)
			continue
		}
		q := qs.chooseQueueLocked(r.hash)
		qs.enqueueLocked(q, r)
	}
	qs.dispatchLocked()
}

// tryAcquire takes a seat at once if one is free and nobody waits for
// it (queued requests go first).
func (qs *queueSet) tryAcquire() bool {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if qs.waiting == 0 && qs.executing < qs.concurrencyLimit {
		qs.executing++
		return true
	}
	return false
}

// enqueue queues r in the shortest queue of its hand, or reports the
// reason it cannot: the level does not queue, or the queue is full.
func (qs *queueSet) enqueue(r *waitingRequest) outcome {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if qs.waiting == 0 && qs.executing < qs.concurrencyLimit {
		qs.executing++ // a seat freed since tryAcquire
		r.outcome = dispatched
		return dispatched
	}
	if qs.queues == nil {
		return rejectedConcurrencyLimit
	}
	q := qs.chooseQueueLocked(r.hash)
	if len(q.requests) >= qs.queueLengthLimit {
		return rejectedQueueFull
	}
	qs.enqueueLocked(q, r)
	qs.dispatchLocked()
	return pending
}

// chooseQueueLocked is the queue of hash's hand with the least work in
// it, waiting or executing.
func (qs *queueSet) chooseQueueLocked(hash uint64) *fifo {
	var buf [16]int
	hand := dealHand(hash, len(qs.queues), min(qs.handSize, len(qs.queues)), buf[:0])
	best := qs.queues[hand[0]]
	for _, i := range hand[1:] {
		if q := qs.queues[i]; len(q.requests)+q.executing < len(best.requests)+best.executing {
			best = q
		}
	}
	return best
}

func (qs *queueSet) enqueueLocked(q *fifo, r *waitingRequest) {
	if len(q.requests) == 0 {
		q.nextStart = max(q.nextStart, qs.virtualTime)
	}
	qs.arrivals++
	r.start, r.queue, r.seq = q.nextStart, q, qs.arrivals
	q.nextStart++
	q.requests = append(q.requests, r)
	qs.waiting++
}

// dispatchLocked hands free seats to the queued requests with the
// earliest virtual start times.
func (qs *queueSet) dispatchLocked() {
	for qs.waiting > 0 && qs.executing < qs.concurrencyLimit {
		var next *fifo
		for _, q := range qs.queues {
			if len(q.requests) > 0 && (next == nil || before(q.requests[0], next.requests[0])) {
				next = q
			}
		}
		r := next.requests[0]
		qs.virtualTime = r.start
		qs.executing++
		next.executing++
		qs.finishWaitingLocked(r, dispatched)
	}
}

func before(a, b *waitingRequest) bool {
	return a.start < b.start || a.start == b.start && a.seq < b.seq
}

// finishWaitingLocked takes r out of its queue with its outcome and wakes
// its request.
func (qs *queueSet) finishWaitingLocked(r *waitingRequest, o outcome) {
	if q := r.queue; q != nil {
		if i := indexOf(q.requests, r); i >= 0 {
			q.requests = append(q.requests[:i], q.requests[i+1:]...)
			qs.waiting--
		}
	}
	r.outcome = o
	close(r.readyCh)
}

func indexOf(rs []*waitingRequest, r *waitingRequest) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// giveUp ends r's wait with o (the queue wait limit passed, or the client
// went away) unless it was dispatched meanwhile, and returns its final
// outcome.
func (qs *queueSet) giveUp(r *waitingRequest, o outcome) outcome {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if r.outcome == pending {
		qs.finishWaitingLocked(r, o)
	}
	return r.outcome
}

// release frees the seat of a request that ran, from queue q (nil for
// one that never queued), and dispatches the next.
func (qs *queueSet) release(q *fifo) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	qs.executing--
	if q != nil {
		q.executing--
	}
	qs.dispatchLocked()
}
