// Package clock is the only place minicp reads the time or waits for it.
// Components take a Clock in their Options (defaulting to Real), so tests
// swap in clocktest.Fake and step time instead of sleeping: heartbeats,
// backoff, resync, container run times and timestamps all follow it.
//
// Upstream: k8s.io/utils/clock.
package clock

import "time"

// Clock tells the time and makes timers. Implementations are safe for
// concurrent use.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	// NewTimer fires once after d. The caller must Stop it if it abandons
	// it before it fires.
	NewTimer(d time.Duration) Timer
	// NewTicker fires every d until stopped. The caller must Stop it.
	NewTicker(d time.Duration) Ticker
}

// Timer is a time.Timer behind an interface.
type Timer interface {
	C() <-chan time.Time
	// Stop reports whether it stopped the timer before it fired.
	Stop() bool
	// Reset sets the timer to fire d after the clock's time when Reset
	// runs, and reports whether it was still pending.
	Reset(d time.Duration) bool
	// ResetAt sets the timer to fire at t, at once if t has passed, and
	// reports whether it was still pending. A caller that holds a
	// deadline uses it rather than Reset(t.Sub(now)): that reads the
	// clock twice (once for now, once inside Reset), and a fake clock
	// stepped in between would push the deadline late by the step.
	ResetAt(t time.Time) bool
}

// Ticker is a time.Ticker behind an interface.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Real is the wall clock.
var Real Clock = realClock{}

type realClock struct{}

func (realClock) Now() time.Time                  { return time.Now() }
func (realClock) Since(t time.Time) time.Duration { return time.Since(t) }
func (realClock) NewTimer(d time.Duration) Timer  { return realTimer{time.NewTimer(d)} }
func (realClock) NewTicker(d time.Duration) Ticker {
	return realTicker{time.NewTicker(d)}
}

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }
func (r realTimer) ResetAt(t time.Time) bool   { return r.t.Reset(time.Until(t)) }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }
