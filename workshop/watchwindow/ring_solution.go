//go:build solution

package watchwindow

import "sort"

// Add appends ev, the newest event. When the ring is full, the oldest
// event leaves the window first, and with it every resourceVersion up to
// its own.
func (w *Window) Add(ev Event) {
	n := len(w.ring)
	if w.end-w.start == n {
		w.windowRV = w.ring[w.start%n].ResourceVersion
		// Drop the reference, so the evicted object can be collected.
		w.ring[w.start%n] = Event{}
		w.start++
	}
	w.ring[w.end%n] = ev
	w.end++
}

// EventsSince returns the events after rv, oldest first, or w.tooOld(rv)
// when rv is older than the window.
func (w *Window) EventsSince(rv int64) ([]Event, error) {
	if rv < w.windowRV {
		return nil, w.tooOld(rv)
	}
	n, size := w.end-w.start, len(w.ring)
	// ResourceVersions increase along the window: binary search.
	first := sort.Search(n, func(i int) bool { return w.ring[(w.start+i)%size].ResourceVersion > rv })
	events := make([]Event, 0, n-first)
	for i := first; i < n; i++ {
		events = append(events, w.ring[(w.start+i)%size])
	}
	return events, nil
}
