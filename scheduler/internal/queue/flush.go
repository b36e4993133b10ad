package queue

import (
	"context"
	"time"

	"github.com/minicp/minicp/clock"
)

// armingTolerance bounds how far the clock may move while Run arms its
// timer. Timers count from their creation, so a fake clock stepped between
// Run reading the time and creating the timer would leave it late by the
// whole step, and a test that steps exactly to the deadline would wait
// forever. Run re-arms when the clock moved by this much or more: any step
// a test makes, while the real clock's few microseconds of arming (a
// timer that late does not matter) almost never trigger it.
const armingTolerance = time.Millisecond

// Run moves pods out of backoffQ when their backoff runs out, and out of
// unschedulablePods when they have waited
// PodMaxInUnschedulablePodsDuration, until ctx ends. Instead of upstream's
// one-second and thirty-second tickers it arms one timer for the earliest
// deadline, so a pod is retried exactly when its backoff ends, and a
// queue with no pod waiting sets no timer at all.
func (q *PriorityQueue) Run(ctx context.Context) {
	for {
		now := q.clock.Now()
		next, ok := q.flush(now)
		var timer clock.Timer
		var timerCh <-chan time.Time
		if ok {
			timer = q.clock.NewTimer(next.Sub(now))
			timerCh = timer.C()
			if q.clock.Since(now) >= armingTolerance {
				timer.Stop()
				continue
			}
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-timerCh:
		case <-q.wakeCh:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// flush moves the pods due at now and returns the next deadline, if any.
//
// Upstream: flushBackoffQCompleted and flushUnschedulablePodsLeftover.
func (q *PriorityQueue) flush(now time.Time) (time.Time, bool) {
	q.mu.Lock()
	moved := false
	for {
		pInfo, ok := q.backoffQ.Peek()
		if !ok || q.backoffExpiry(pInfo).After(now) {
			break
		}
		q.backoffQ.Pop()
		q.addToActiveQLocked(pInfo)
		moved = true
	}
	before := len(q.unschedulablePods)
	// A pod queued before now-max has waited max.
	q.moveAllLocked(UnschedulableTimeout, now.Add(-q.maxInUnscheduled).Add(time.Nanosecond))
	moved = moved || len(q.unschedulablePods) != before

	var next time.Time
	if pInfo, ok := q.backoffQ.Peek(); ok {
		next = q.backoffExpiry(pInfo)
	}
	for _, pInfo := range q.unschedulablePods {
		if t := pInfo.Timestamp.Add(q.maxInUnscheduled); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	q.mu.Unlock()
	if moved {
		q.changed()
	}
	return next, !next.IsZero()
}

// BackoffDuration is the backoff after attempts failed attempts:
// PodInitialBackoff, doubled for each attempt after the first, capped at
// PodMaxBackoff.
//
// Upstream: PriorityQueue.calculateBackoffDuration.
func (q *PriorityQueue) BackoffDuration(attempts int) time.Duration {
	return q.backoff.Delay(attempts - 1)
}

func (q *PriorityQueue) backoffExpiry(pInfo *QueuedPodInfo) time.Time {
	return pInfo.Timestamp.Add(q.BackoffDuration(pInfo.Attempts))
}
