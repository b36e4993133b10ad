package kubelet

import "time"

// The kubelet's backoffs, for restarting a crashing container
// (CrashLoopBackOff) and for pulling an image that failed (ImagePullBackOff):
// the first retry waits initialBackoff, each next one twice as long, up to
// maxBackoff. The numbers are upstream's: 10s is long enough that a crash
// loop does not hog the node, 5m short enough that a fixed cause (an image
// pushed, a dependency up) is noticed within minutes.
const (
	initialBackoff = 10 * time.Second
	maxBackoff     = 5 * time.Minute
)

// backOff is a per-key exponential backoff on the kubelet's clock. An
// entry that was not stepped for twice maxBackoff starts over: a container
// that ran fine for ten minutes and then crashed is a new incident. It is
// owned by one pod's worker and needs no lock.
//
// Upstream: k8s.io/client-go/util/flowcontrol (Backoff, without jitter as
// the kubelet uses it).
type backOff struct {
	entries map[string]*backOffEntry
}

type backOffEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

// next steps key's backoff for an event (a container's exit, a failed
// pull) at eventTime: to initialBackoff for a new or expired entry, else
// to twice the last delay, capped at maxBackoff.
func (b *backOff) next(key string, eventTime, now time.Time) {
	if b.entries == nil {
		b.entries = map[string]*backOffEntry{}
	}
	e, ok := b.entries[key]
	switch {
	case !ok || hasExpired(eventTime, e.lastUpdate):
		e = &backOffEntry{backoff: initialBackoff}
		b.entries[key] = e
	default:
		e.backoff = min(2*e.backoff, maxBackoff)
	}
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
	return eventTime.Sub(lastUpdate) > 2*maxBackoff
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
