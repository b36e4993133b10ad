//go:build !solution

package watchwindow

import "github.com/minicp/minicp/workshop/exercise"

// Add appends ev, the newest event. When the ring is full, the oldest
// event leaves the window first, and with it every resourceVersion up to
// its own: windowRV moves to the evicted event's resourceVersion.
//
// TODO(you): store ev at ring[end % len(ring)]; when end-start already
// equals len(ring), evict ring[start % len(ring)] first (remember its
// ResourceVersion in windowRV, and start++). Never allocate: the ring is
// the whole memory of the window.
func (w *Window) Add(ev Event) {}

// EventsSince returns the events after rv, oldest first: what a watch
// from resourceVersion rv is sent before new events. It returns no event
// (and no error) when rv is the newest. When rv is older than the window
// (rv < windowRV), some events after rv are gone: it returns w.tooOld(rv),
// which the API server sends as 410 Gone, and the client lists again.
//
// TODO(you): the check above, then find the first event with a
// ResourceVersion > rv (they increase along the ring: sort.Search works)
// and copy the events from there to the newest into a new slice.
func (w *Window) EventsSince(rv int64) ([]Event, error) {
	return nil, exercise.NotDone("EventsSince in workshop/watchwindow/ring.go")
}
