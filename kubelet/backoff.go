package kubelet

import (
	"time"

	"github.com/minicp/minicp/wait"
)

// containerBackoff is the kubelet's backoff, for restarting a crashing
// container (CrashLoopBackOff) and for pulling an image that failed
// (ImagePullBackOff): the first retry waits 10s, each next one twice as
// long, up to 5m. The numbers are upstream's: 10s is long enough that a
// crash loop does not hog the node, 5m short enough that a fixed cause
// (an image pushed, a dependency up) is noticed within minutes. An entry
// that was not stepped for Reset (twice the cap) starts over: a container
// that ran fine for ten minutes and then crashed is a new incident. No
// jitter, as upstream's kubelet.
var containerBackoff = wait.Backoff{
	Initial: 10 * time.Second,
	Factor:  2,
	Cap:     5 * time.Minute,
	Reset:   10 * time.Minute,
}

// backOff is a per-key containerBackoff, stepped at the time of an event
// (a container's exit, a failed pull) rather than the clock's, as the
// kubelet learns of events late. It is owned by one pod's worker and
// needs no lock.
//
// Upstream: k8s.io/client-go/util/flowcontrol (Backoff, without jitter as
// the kubelet uses it).
type backOff struct {
	entries map[string]*backOffEntry
}

type backOffEntry struct {
	// steps counts the events since the entry started (over).
	steps      int
	backoff    time.Duration
	lastUpdate time.Time
}

// next steps key's backoff for an event at eventTime: to the first delay
// for a new or expired entry, else to the next one.
func (b *backOff) next(key string, eventTime, now time.Time) {
	if b.entries == nil {
		b.entries = map[string]*backOffEntry{}
	}
	e, ok := b.entries[key]
	if !ok || hasExpired(eventTime, e.lastUpdate) {
		e = &backOffEntry{}
		b.entries[key] = e
	}
	e.backoff = containerBackoff.Delay(e.steps)
	e.steps++
	e.lastUpdate = now
}

// inBackOffSince reports whether, at now, key is still backing off from
// an event at eventTime, and until when.
func (b *backOff) inBackOffSince(key string, eventTime, now time.Time) (time.Time, bool) {
	e, ok := b.entries[key]
	if !ok || hasExpired(eventTime, e.lastUpdate) {
		return time.Time{}, false
	}
	until := eventTime.Add(e.backoff)
	return until, now.Before(until)
}

// delay returns key's current delay, zero if it has none.
func (b *backOff) delay(key string) time.Duration {
	if e, ok := b.entries[key]; ok {
		return e.backoff
	}
	return 0
}

func hasExpired(eventTime, lastUpdate time.Time) bool {
	return eventTime.Sub(lastUpdate) > containerBackoff.Reset
}

// inBackOffSinceUpdate reports whether key's last step (a failed pull)
// was less than its delay before now, and until when.
//
// Upstream: k8s.io/client-go/util/flowcontrol (Backoff.IsInBackOffSinceUpdate).
func (b *backOff) inBackOffSinceUpdate(key string, now time.Time) (time.Time, bool) {
	e, ok := b.entries[key]
	if !ok {
		return time.Time{}, false
	}
	until := e.lastUpdate.Add(e.backoff)
	return until, now.Before(until)
}
