package kubelet

import (
	"math/rand/v2"
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/clock"
)

// event records an Event about pod, from component kubelet on this node.
// It never blocks (see record.Recorder).
func (k *Kubelet) event(pod *corev1.Pod, eventType, reason, format string, args ...any) {
	// The reference carries the kind, which copies from a list lack.
	ref := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, ResourceVersion: pod.ResourceVersion,
		},
	}
	k.recorder.Eventf(ref, eventType, reason, format, args...)
}

// maxEventClockOffset bounds eventClock's offset: well below the second
// precision of Event timestamps, so the offset never shows.
const maxEventClockOffset = time.Microsecond

// eventClock is the clock of the kubelet's event recorder. The recorder
// names each Event after its object and the time in nanoseconds, so on a
// fake clock that stands still a pod's Pulling and Pulled would get one
// name and the second would be lost. eventClock never returns the same
// instant twice, and runs a random fraction of a microsecond ahead, so
// that the kubelet and the scheduler on one fake clock do not name their
// events about one pod alike either.
type eventClock struct {
	clock.Clock
	offset time.Duration

	// mu guards last, the instant returned last.
	mu   sync.Mutex
	last time.Time
}

func newEventClock(c clock.Clock) *eventClock {
	return &eventClock{Clock: c, offset: 1 + rand.N(maxEventClockOffset-1)}
}

// Now returns the clock's time plus the offset, or a nanosecond after the
// instant returned last if that is not later.
func (c *eventClock) Now() time.Time {
	now := c.Clock.Now().Add(c.offset)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !now.After(c.last) {
		now = c.last.Add(1)
	}
	c.last = now
	return now
}
