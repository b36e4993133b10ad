// Package clocktest provides Fake, a clock that moves only when a test
// steps it, so time-driven behaviour (backoff, heartbeats, resync) is tested
// without sleeping.
package clocktest

import (
	"context"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
)

// Fake is a clock.Clock whose time changes only through Step and SetTime.
// Timers and tickers fire, in deadline order, when a step reaches their
// deadline. Safe for concurrent use.
type Fake struct {
	// mu guards now, waiters and waitersChanged.
	mu      sync.Mutex
	now     time.Time
	waiters []*fakeTimer
	// waitersChanged is closed and replaced whenever waiters changes, so
	// BlockUntilWaiters can also select on its ctx.
	waitersChanged chan struct{}
}

var _ clock.Clock = (*Fake)(nil)

// NewFake returns a Fake set to t.
func NewFake(t time.Time) *Fake {
	return &Fake{now: t, waitersChanged: make(chan struct{})}
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Since is Now minus t.
func (f *Fake) Since(t time.Time) time.Duration { return f.Now().Sub(t) }

// NewTimer returns a timer that fires when the fake time reaches now+d.
func (f *Fake) NewTimer(d time.Duration) clock.Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clock: f, ch: make(chan time.Time, 1), deadline: f.now.Add(d)}
	f.addLocked(t)
	return t
}

// NewTicker returns a ticker that fires every d of fake time.
func (f *Fake) NewTicker(d time.Duration) clock.Ticker {
	if d <= 0 {
		panic("clocktest: non-positive ticker period")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clock: f, ch: make(chan time.Time, 1), deadline: f.now.Add(d), period: d}
	f.addLocked(t)
	return fakeTicker{t}
}

// fakeTicker adapts a periodic fakeTimer to clock.Ticker, whose Stop
// returns nothing.
type fakeTicker struct{ t *fakeTimer }

func (t fakeTicker) C() <-chan time.Time { return t.t.ch }
func (t fakeTicker) Stop()               { t.t.Stop() }

// Step moves the time forward by d and fires every timer that falls due,
// in deadline order. A ticker fires at most once per Step, as a real ticker
// drops ticks for a slow reader.
func (f *Fake) Step(d time.Duration) {
	f.mu.Lock()
	f.setTimeLocked(f.now.Add(d))
	f.mu.Unlock()
}

// SetTime moves the time to t (forward only) and fires due timers.
func (f *Fake) SetTime(t time.Time) {
	f.mu.Lock()
	if t.After(f.now) {
		f.setTimeLocked(t)
	}
	f.mu.Unlock()
}

func (f *Fake) setTimeLocked(t time.Time) {
	f.now = t
	kept := f.waiters[:0]
	changed := false
	for _, w := range f.waiters {
		if w.deadline.After(t) {
			kept = append(kept, w)
			continue
		}
		// The channel has a buffer of 1 and a full buffer means an unread
		// tick: dropping this one is what time.Ticker does.
		select {
		case w.ch <- t:
		default:
		}
		if w.period > 0 {
			for !w.deadline.After(t) {
				w.deadline = w.deadline.Add(w.period)
			}
			kept = append(kept, w)
			continue
		}
		changed = true
	}
	f.waiters = kept
	if changed {
		f.notifyLocked()
	}
}

// Waiters returns how many timers and tickers are pending.
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// HasWaiters reports whether any timer or ticker is pending.
func (f *Fake) HasWaiters() bool { return f.Waiters() > 0 }

// BlockUntilWaiters blocks until at least n timers or tickers are pending,
// so a test steps time only after the code under test is waiting on it.
func (f *Fake) BlockUntilWaiters(ctx context.Context, n int) error {
	for {
		f.mu.Lock()
		count, ch := len(f.waiters), f.waitersChanged
		f.mu.Unlock()
		if count >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

func (f *Fake) addLocked(t *fakeTimer) {
	f.waiters = append(f.waiters, t)
	f.notifyLocked()
}

func (f *Fake) removeLocked(t *fakeTimer) bool {
	for i, w := range f.waiters {
		if w == t {
			f.waiters = append(f.waiters[:i], f.waiters[i+1:]...)
			f.notifyLocked()
			return true
		}
	}
	return false
}

func (f *Fake) notifyLocked() {
	close(f.waitersChanged)
	f.waitersChanged = make(chan struct{})
}

type fakeTimer struct {
	clock    *Fake
	ch       chan time.Time
	deadline time.Time // guarded by clock.mu
	period   time.Duration
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	return t.stopLocked()
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	active := t.stopLocked()
	t.deadline = t.clock.now.Add(d)
	t.clock.addLocked(t)
	return active
}

// ResetAt sets the deadline to at; an at that is not after the fake time
// fires at once, as a real timer reset to a past time does, since no
// later step would reach it.
func (t *fakeTimer) ResetAt(at time.Time) bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	active := t.stopLocked()
	if !at.After(t.clock.now) {
		t.ch <- t.clock.now // stopLocked emptied the buffer
		return active
	}
	t.deadline = at
	t.clock.addLocked(t)
	return active
}

// stopLocked removes t from the waiters and drops a value it sent that
// nobody received, as time.Timer and time.Ticker do since Go 1.23: after
// Stop or Reset no stale value can be received, and a timer whose value
// was not received yet counts as stopped before it fired.
func (t *fakeTimer) stopLocked() bool {
	active := t.clock.removeLocked(t)
	select {
	case <-t.ch:
		active = true
	default:
	}
	return active
}
